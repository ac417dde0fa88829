import { TesseraError } from '../errors/errors';
import type { StorageAdapter } from '../storage/storage-adapter';
import { lifecycleTicketsFolder, minuteOf } from './quota-folders';
import { QuotaTickets } from './quota-tickets';

export const LIFECYCLE_QUOTA = 'lifecycleChangesPerMinute';

/**
 * Counts one lifecycle change (unpublish, deprecate or its undoing) of `tenant` in the clock minute
 * of `now`, refusing it past `limit` with `429 QUOTA_EXCEEDED`. Each change writes a journal entry
 * that every replica reads and an audit record kept for good: without a bound one tenant fills
 * both at the speed of its requests. Counted as create-once tickets in the shared store
 * (`quota/<tenant>/lifecycle/<minute>-<n>`, see QuotaTickets), so replicas together cannot pass
 * the limit: of two at the last unit, one creates it. A change that fails afterwards keeps its unit.
 */
export async function takeLifecycleChange(storage: StorageAdapter, tenant: string, limit: number, now = Date.now()): Promise<void> {
  const tickets = new QuotaTickets(storage, lifecycleTicketsFolder(tenant));
  const minute = minuteOf(now);
  if ((await tickets.take(minute, limit, Buffer.alloc(0))) !== undefined) return;
  throw new TesseraError('QUOTA_EXCEEDED', `Tenant "${tenant}" may change the lifecycle of its versions ${limit} time(s) per minute and has this minute; nothing was changed.`, {
    details: { quota: LIFECYCLE_QUOTA, limit, used: await tickets.used(minute) },
  });
}
