import t from 'tap';
import { Catalog } from '../../src/catalog/catalog';
import { fileSystemStorage } from '../helpers/catalog-storages';
import { packagedFiles } from '../publish/publish-helpers';
import { fixture } from '../helpers/start-registry';

t.test('a version another replica published that cannot be read is skipped, told once, kept in the index and tried again by every reader', async (t) => {
  const shared = await fileSystemStorage(t);
  const publisher = new Catalog(shared.open());
  await publisher.refresh();
  const told: string[] = [];
  const reader = new Catalog(shared.open(), { maintainsIndex: true, indexEvery: 1, onUnreadable: (id, reason) => told.push(`${id}: ${reason}`) });
  await reader.refresh();

  const broken = await packagedFiles(fixture('core-modes'), '1.1.0');
  broken.delete('template.js');
  // Stored and announced; the publisher's own catalog refuses it as the reader will.
  await t.rejects(publisher.publish('core-modes', '1.1.0', broken), { message: 'core-modes@1.1.0: template.js missing from storage.' });
  await publisher.publish('core-modes', '1.2.0', await packagedFiles(fixture('core-modes'), '1.2.0'));
  await reader.refresh();
  t.same(reader.versions('core-modes'), ['1.2.0'], 'the readable version is served');
  t.same(told, ['core-modes@1.1.0: core-modes@1.1.0: template.js missing from storage.']);
  t.equal(reader.unreadableCount, 1);
  await reader.refresh();
  t.equal(told.length, 1, 'told once, though tried at each poll');

  // The reader wrote an index (every version here): a replica starting from it tries the broken version too.
  const later: string[] = [];
  const next = new Catalog(shared.open(), { onUnreadable: (id) => later.push(id) });
  await next.refresh();
  t.same(next.versions('core-modes'), ['1.2.0']);
  t.same(later, ['core-modes@1.1.0']);
  t.equal(next.unreadableCount, 1);
});
