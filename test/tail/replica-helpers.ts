import type { RegistryConfig } from '../../src/config/config';
import { defaultConfig } from '../../src/config/config';
import { createRegistry, type Registry } from '../../src/registry';
import { FileSystemStorage } from '../../src/storage/fs-storage';
import { parseReplicaRecord, REPLICAS_FOLDER, type ReplicaRecord } from '../../src/tail/replica-record';
import { twoTenants } from './tail-helpers';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** Replicas over one storage that find each other fast: they poll, and announce themselves, twice a second. */
export function replicaOfTwoTenants(config: RegistryConfig): void {
  twoTenants(config);
  config.pollIntervalSeconds = 0.5;
  config.replicaHeartbeatSeconds = 0.5;
}

/** How long a replica's sandbox host may take to start on a busy machine. */
const HOSTS_START_MS = 60_000;

/** Another replica over `storagePath`, configured as `replicaOfTwoTenants`; closed when the test ends (unless closed before). */
export async function startReplica(t: Teardown, storagePath: string): Promise<{ registry: Registry; url: string }> {
  const config = defaultConfig();
  config.port = 0;
  config.storagePath = storagePath;
  config.limits.sandboxHosts = 1;
  config.limits.frontThreads = 1;
  replicaOfTwoTenants(config);
  // Replicas in one process share its staging folder: a later one must not take the others' writes under way for leftovers.
  const storage = new FileSystemStorage(storagePath);
  storage.removeInterruptedWrites = async () => 0;
  const registry = await createRegistry(config, { storage });
  const url = await registry.listen();
  t.teardown(() => registry.close());
  const giveUp = performance.now() + HOSTS_START_MS;
  while (registry.pool.stats().hosts < 1) {
    if (performance.now() > giveUp) throw new Error('The replica\'s sandbox host did not start in time.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { registry, url };
}

/** The replicas' records in the storage at `storagePath`, by address. */
export async function replicaRecords(storagePath: string): Promise<Map<string, ReplicaRecord>> {
  const storage = new FileSystemStorage(storagePath);
  const records = new Map<string, ReplicaRecord>();
  for (const key of await storage.listRecords(REPLICAS_FOLDER)) {
    const content = await storage.readRecord(key);
    const record = content === undefined ? undefined : parseReplicaRecord(content);
    if (record) records.set(record.address, record);
  }
  return records;
}
