import t, { type Test } from 'tap';
import { Catalog } from '../../src/catalog/catalog';
import { fileSystemStorage, s3Storage, storeCopies, type SharedStorage } from '../helpers/catalog-storages';
import { countingStorage } from '../helpers/counting-storage';
import { packagedFiles } from '../publish/publish-helpers';
import { fixture } from '../helpers/start-registry';

const COMPONENTS = 30;
const VERSIONS = 4;

async function pollsReadOnlyChanges(t: Test, shared: SharedStorage): Promise<void> {
  const writer = new Catalog(shared.open(), { maintainsIndex: true });
  await storeCopies(shared.open(), fixture('core-modes'), 'scale', COMPONENTS, VERSIONS);
  // The first registry on this storage lists it once and writes the index.
  await writer.refresh();
  t.equal(writer.size, COMPONENTS * VERSIONS);

  const counted = countingStorage(shared.open());
  const reader = new Catalog(counted.storage);
  await reader.refresh();
  t.equal(reader.size, COMPONENTS * VERSIONS, 'another replica starts with every version');
  t.same(
    counted.calls,
    { listRecords: 5, readRecord: 1 },
    'from the index: the list of indexes, the newest one, the unpublished and deprecated versions (none), the journal since it, and the indexes again (for one written meanwhile)',
  );

  counted.reset();
  await reader.refresh();
  t.same(counted.calls, { listRecords: 2 }, `an idle poll over ${COMPONENTS * VERSIONS} versions lists the journal and the indexes, nothing else`);

  const files = await packagedFiles(fixture('core-modes'), '2.0.0');
  await writer.publish('core-modes', '2.0.0', files);
  counted.reset();
  await reader.refresh();
  t.equal(reader.resolve('core-modes', '').version, '2.0.0', 'the version published by the other replica is found');
  t.equal(counted.calls.readFile, 1, "the new version's descriptor is the one file read");
  t.notOk(counted.calls.listComponents ?? counted.calls.listVersions, 'storage is not listed');
  t.ok(counted.total() <= 6, `a poll that finds one version makes ${counted.total()} storage calls: ${JSON.stringify(counted.calls)}`);

  counted.reset();
  await reader.refresh();
  t.same(counted.calls, { listRecords: 2 }, 'and the next poll is idle again');
}

t.test('on the file system, a poll over many versions reads only the version another replica published', async (t) => {
  await pollsReadOnlyChanges(t, await fileSystemStorage(t));
});

t.test('on S3, a poll over many versions reads only the version another replica published', async (t) => {
  await pollsReadOnlyChanges(t, await s3Storage(t));
});
