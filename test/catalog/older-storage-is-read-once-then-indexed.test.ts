import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import t, { type Test } from 'tap';
import { Catalog } from '../../src/catalog/catalog';
import { defaultConfig } from '../../src/config/config';
import { createRegistry } from '../../src/registry';
import type { StorageAdapter } from '../../src/storage/storage-adapter';
import { fileSystemStorage, s3Storage, storeCopies, type SharedStorage } from '../helpers/catalog-storages';
import { countingStorage } from '../helpers/counting-storage';
import { fixture, request } from '../helpers/start-registry';

const COMPONENTS = 5;
const VERSIONS = 3;

/** What a catalog answers about every component: its versions and its latest version's summary. */
const answers = (catalog: Catalog) => catalog.names().map((name) => ({ name, versions: catalog.versions(name), latest: catalog.latest(name)!.descriptor }));

async function readOnceThenIndexed(t: Test, shared: SharedStorage): Promise<void> {
  // What a registry without a journal or an index left: versions only.
  await storeCopies(shared.open(), fixture('core-modes'), 'older', COMPONENTS, VERSIONS);
  const notices: string[] = [];
  const first = countingStorage(shared.open());
  const upgraded = new Catalog(first.storage, { maintainsIndex: true, onNotice: (message) => notices.push(message) });
  await upgraded.refresh();
  t.equal(upgraded.size, COMPONENTS * VERSIONS, 'every version is found');
  t.equal(first.calls.listComponents, 1, 'storage is listed once');
  t.equal(first.calls.listVersions, COMPONENTS);
  t.equal(first.calls.readFile, COMPONENTS * VERSIONS, "and each version's descriptor read once");
  t.same(notices, [`listed and read every stored version once (storage has no catalog index): ${COMPONENTS * VERSIONS} indexed, 0 unreadable`]);
  t.equal((await shared.open().listRecords('index/')).length, 1, 'then the index is written');

  const second = countingStorage(shared.open());
  const next = new Catalog(second.storage, { maintainsIndex: true });
  await next.refresh();
  t.same(answers(next), answers(upgraded), 'the next start answers the same from the index');
  t.same(
    { listComponents: second.calls.listComponents, listVersions: second.calls.listVersions, readFile: second.calls.readFile },
    { listComponents: undefined, listVersions: undefined, readFile: undefined },
    'without listing storage or reading a version',
  );
}

t.test('on the file system, storage written without an index is listed and read once, then indexed', async (t) => {
  await readOnceThenIndexed(t, await fileSystemStorage(t));
});

t.test('on S3, storage written without an index is listed and read once, then indexed', async (t) => {
  await readOnceThenIndexed(t, await s3Storage(t));
});

t.test('an index of an older format is read as none: storage is listed once more and the index replaced', async (t) => {
  const shared = await fileSystemStorage(t);
  await storeCopies(shared.open(), fixture('core-modes'), 'older', 2, 2);
  const old = 'index/000000000000009-00000000.json.gz';
  await shared.open().putRecord(old, await promisify(gzip)(Buffer.from(JSON.stringify({ format: 0, components: {} }))));
  const notices: string[] = [];
  const catalog = new Catalog(shared.open(), { maintainsIndex: true, onNotice: (message) => notices.push(message) });
  await catalog.refresh();
  t.equal(catalog.size, 4);
  t.same(notices, [`listed and read every stored version once (the catalog index ${old} is of an older format): 4 indexed, 0 unreadable`]);
  const indexes = await shared.open().listRecords('index/');
  t.equal(indexes.length, 1);
  t.not(indexes[0], old, 'the old index is replaced');
});

/** A registry over `storage` on a loopback port; answers `GET /?meta=true` and one component's `~info`. */
async function registryAnswers(storage: StorageAdapter): Promise<{ list: unknown; info: unknown; page: string; rendered: number }> {
  const config = defaultConfig();
  Object.assign(config, { port: 0, host: '127.0.0.1', pollIntervalSeconds: 0 });
  config.limits.sandboxHosts = 1;
  const registry = await createRegistry(config, { storage });
  const url = await registry.listen();
  try {
    const meta = await request(`${url}?meta=true`);
    const info = await request(`${url}older-1/1.0.1/~info`);
    const page = await request(url, { headers: { accept: 'text/html' } });
    const rendered = await request(`${url}older-1/1.0.1?name=Ada`);
    return { list: meta.body.components, info: info.body, page: page.text.replaceAll(url, '<base>'), rendered: rendered.status };
  } finally {
    await registry.close();
  }
}

t.test("a registry started from the index answers the list, the web UI's list and ~info as one that read every version", async (t) => {
  const shared = await fileSystemStorage(t);
  await storeCopies(shared.open(), fixture('core-modes'), 'older', 3, 2);
  const first = countingStorage(shared.open());
  const fromStorage = await registryAnswers(first.storage);
  t.equal(first.calls.listComponents, 1);
  const second = countingStorage(shared.open());
  const fromIndex = await registryAnswers(second.storage);
  t.equal(second.calls.listComponents, undefined, 'the second registry reads the index');
  t.same(fromIndex, fromStorage);
  t.equal(fromIndex.rendered, 200);
  t.match(fromIndex.info, { name: 'older-1', version: '1.0.1', description: 'Copy older-1@1.0.1', allVersions: ['1.0.0', '1.0.1'], requestVersion: '1.0.1' });
  t.equal((fromIndex.list as unknown[]).length, 3);
});
