import type { StorageAdapter } from '../storage/storage-adapter';
import { isLive, parseReplicaRecord, REPLICAS_FOLDER, type ReplicaRecord } from './replica-record';

/** Another replica a tail gathers executions from. */
export interface Peer {
  id: string;
  /** Its internal base URL. */
  address: string;
}

/**
 * The other live replicas over the same storage, as their records say: every record under
 * `replicas/` announced within its last heartbeats, but this replica's own address; one per
 * address (a replica started again on the same address replaces the one before it).
 */
export async function livePeers(storage: StorageAdapter, ownAddress: string, heartbeatMs: number): Promise<Peer[]> {
  const keys = await storage.listRecords(REPLICAS_FOLDER);
  const records = await Promise.all(keys.map(async (key) => {
    const content = await storage.readRecord(key).catch(() => undefined);
    return content === undefined ? undefined : parseReplicaRecord(content);
  }));
  const now = Date.now();
  const byAddress = new Map<string, ReplicaRecord>();
  for (const record of records) {
    if (record === undefined || record.address === ownAddress || !isLive(record, heartbeatMs, now)) continue;
    const known = byAddress.get(record.address);
    if (known === undefined || known.heartbeat < record.heartbeat) byAddress.set(record.address, record);
  }
  return [...byAddress.values()].map(({ id, address }) => ({ id, address }));
}
