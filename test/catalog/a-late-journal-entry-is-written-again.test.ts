import t from 'tap';
import { Catalog } from '../../src/catalog/catalog';
import { ChangeJournal, WINDOW_MS } from '../../src/catalog/change-journal';
import { fileSystemStorage } from '../helpers/catalog-storages';
import { packagedFiles } from '../publish/publish-helpers';
import { fixture } from '../helpers/start-registry';

t.test('a publish whose journal entry lands behind a reader that moved on writes it again, and the reader finds the version', async (t) => {
  const shared = await fileSystemStorage(t);
  const now = Date.now();
  // A publisher whose clock lags the other's by more than the window, or whose commit took that long.
  const slow = new ChangeJournal(shared.open(), () => now - 2 * WINDOW_MS);
  const reader = new Catalog(shared.open());
  await reader.refresh();

  const late = await slow.announce('core-modes', '1.0.0');
  // Meanwhile another replica publishes, and the reader's cursor moves past the late entry's window.
  await new Catalog(shared.open()).publish('core-static', '1.0.0', await packagedFiles(fixture('core-static')));
  await reader.refresh();
  t.same(reader.names(), ['core-static']);
  t.same(await reader.refresh().then(() => reader.versions('core-modes')), [], 'the version is not stored yet');

  await shared.open().writeVersion('core-modes', '1.0.0', await packagedFiles(fixture('core-modes')));
  await reader.refresh();
  t.same(reader.versions('core-modes'), [], 'its entry is too far behind for the reader to list it again');
  const confirmed = await slow.confirm(late);
  t.not(confirmed.key, late.key, 'the publisher sees a later entry past the window and writes its own again');
  t.ok(confirmed.time >= now - 1000, 'at the newest time it saw');
  await reader.refresh();
  t.same(reader.versions('core-modes'), ['1.0.0'], 'the reader finds the version');

  t.same(await slow.confirm(confirmed), confirmed, 'an entry no reader can have passed is left as it is');
});
