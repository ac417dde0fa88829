import t from 'tap';
import { Catalog } from '../../src/catalog/catalog';
import { fileSystemStorage } from '../helpers/catalog-storages';
import { countingStorage } from '../helpers/counting-storage';
import { packagedFiles } from '../publish/publish-helpers';
import { fixture } from '../helpers/start-registry';

t.test('every few versions the index is written again and the journal behind it pruned; a reader left behind catches up from the index', async (t) => {
  const shared = await fileSystemStorage(t);
  // Journal entries are kept 0 ms behind the newest index: anything older goes at once. Each publish a second apart.
  let time = Date.now();
  const options = { maintainsIndex: true, indexEvery: 3, journalRetentionMs: 0, clock: () => (time += 1000) };
  const writer = new Catalog(shared.open(), options);
  await writer.refresh();
  const behind = new Catalog(shared.open());
  await behind.refresh();

  const publish = async (version: string) => writer.publish('core-modes', version, await packagedFiles(fixture('core-modes'), version));
  for (const version of ['1.0.0', '1.0.1']) await publish(version);
  await writer.refresh();
  t.same(await shared.open().listRecords('index/'), [], 'no index before three versions');
  await publish('1.0.2');
  await writer.refresh();
  t.equal((await shared.open().listRecords('index/')).length, 1, 'the third version writes the index');
  t.match(await shared.open().listRecords('changes/'), [/-core-modes@1\.0\.2$/], 'and prunes the journal behind it');

  const counted = countingStorage(shared.open());
  const fresh = new Catalog(counted.storage);
  await fresh.refresh();
  t.same(fresh.versions('core-modes'), ['1.0.0', '1.0.1', '1.0.2'], 'a replica starting now reads them from the index');
  t.equal(counted.calls.readFile, undefined);

  await behind.refresh();
  t.same(behind.versions('core-modes'), ['1.0.0', '1.0.1', '1.0.2'], 'a replica whose entries were pruned before it read them reloads the index');
});
