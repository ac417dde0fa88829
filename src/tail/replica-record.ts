/** Where replicas announce themselves in storage: one record each, `replicas/<id>.json`. */
export const REPLICAS_FOLDER = 'replicas/';

/** A replica silent for this many heartbeats is taken for gone. */
export const STALE_HEARTBEATS = 4;

/** A record this many heartbeats old (and at least ten minutes) is a replica that ended without removing it: removed. */
const DEAD_HEARTBEATS = 100;
const DEAD_AT_LEAST_MS = 10 * 60_000;

/** One replica's announcement: who it is, where the others reach it, and when it last said so. */
export interface ReplicaRecord {
  /** Made at the replica's start: a replica started again is a new one. */
  id: string;
  /** Its internal base URL (`http://10.0.3.7:3030/`). */
  address: string;
  /** ISO time of its last heartbeat, by its own clock. */
  heartbeat: string;
}

export const replicaKey = (id: string): string => `${REPLICAS_FOLDER}${id}.json`;

/** A record as stored, or undefined when it is not one (a record of another shape is ignored, not trusted). */
export function parseReplicaRecord(content: Buffer): ReplicaRecord | undefined {
  let value: Partial<ReplicaRecord>;
  try {
    value = JSON.parse(content.toString('utf8')) as Partial<ReplicaRecord>;
  } catch {
    return undefined;
  }
  const { id, address, heartbeat } = value ?? {};
  if (typeof id !== 'string' || typeof address !== 'string' || typeof heartbeat !== 'string') return undefined;
  if (!/^https?:\/\/[^\s/?#]+\/$/.test(address) || Number.isNaN(Date.parse(heartbeat))) return undefined;
  return { id, address, heartbeat };
}

/** How long ago, by this replica's clock, the record's replica last announced itself. */
const ageOf = (record: ReplicaRecord, now: number): number => now - Date.parse(record.heartbeat);

/** Whether the record's replica announced itself within the last STALE_HEARTBEATS heartbeats. */
export const isLive = (record: ReplicaRecord, heartbeatMs: number, now = Date.now()): boolean => ageOf(record, now) < STALE_HEARTBEATS * heartbeatMs;

/** Whether the record is long past live: its replica ended without removing it. */
export const isDead = (record: ReplicaRecord, heartbeatMs: number, now = Date.now()): boolean => ageOf(record, now) > Math.max(DEAD_HEARTBEATS * heartbeatMs, DEAD_AT_LEAST_MS);
