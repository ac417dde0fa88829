import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { Catalog } from '../../src/catalog/catalog';
import { defaultConfig } from '../../src/config/config';
import { packagedFixture } from '../helpers/packaged-fixture';
import { createRegistry } from '../../src/registry';
import { FileSystemStorage } from '../../src/storage/fs-storage';
import { eventually } from '../cli/run-cli';
import { fixture, request } from '../helpers/start-registry';

/** The file-system storage, listing its change journal (once per poll) slower than the poll interval, counting listings in flight. */
class SlowListingStorage extends FileSystemStorage {
  inFlight = 0;
  mostInFlight = 0;
  listings = 0;

  override async listRecords(folder: string, startAfter?: string): Promise<string[]> {
    if (folder !== 'changes/') return super.listRecords(folder, startAfter);
    this.inFlight += 1;
    this.listings += 1;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return await super.listRecords(folder, startAfter);
    } finally {
      this.inFlight -= 1;
    }
  }
}

t.test('a storage slower than the poll interval gets one poll at a time; a broken version never hides later ones', async (t) => {
  const storagePath = await mkdtemp(path.join(os.tmpdir(), 'tessera-test-'));
  t.teardown(() => rm(storagePath, { recursive: true, force: true }));
  const storage = new SlowListingStorage(storagePath);
  const config = defaultConfig();
  Object.assign(config, { port: 0, storagePath, pollIntervalSeconds: 0.01 });
  config.limits.sandboxHosts = 1;
  const registry = await createRegistry(config, { storage });
  const url = await registry.listen();
  t.teardown(() => registry.close());

  // Published by another replica meanwhile: a broken version that comes first in the journal, then a good one.
  const otherReplica = new Catalog(new FileSystemStorage(storagePath));
  await otherReplica.publish('aaa-broken', '1.0.0', new Map([['package.json', Buffer.from('{"name": "aaa-bro')]])).catch(() => {});
  const { descriptor, files } = await packagedFixture(fixture('core-modes'));
  await otherReplica.publish(descriptor.name, descriptor.version, files);

  await eventually(async () => (await request(`${url}core-modes?name=Ada`)).status === 200, 5000, 20);
  const seen = storage.listings;
  await eventually(async () => storage.listings >= seen + 3, 5000, 20);
  t.equal(storage.mostInFlight, 1, `${storage.listings} polls, never two at once`);
  t.equal(registry.catalog.unreadableCount, 1);
});
