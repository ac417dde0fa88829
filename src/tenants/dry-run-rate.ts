import { TesseraError } from '../errors/errors';
import type { StorageAdapter } from '../storage/storage-adapter';
import { dryRunTicketsFolder, hourOf } from './quota-folders';
import { QuotaTickets } from './quota-tickets';

/**
 * Takes one of the tenant's dry runs of this clock hour (`limits.dryRunsPerHour`), before its
 * upload is read: a dry run costs a publish thread as much as a publish (unpacking, every check),
 * stores nothing, and so takes no unit of `publishesPerHour`. Counted as publishes are, by tickets
 * created once in the shared store (`quota/<tenant>/dry-runs/<hour>-<n>`), so replicas together
 * hold the rate; a ticket is never given back, whatever the dry run answered. Configured tenants
 * count too: they have no stored quotas, but they use the same threads. Throws QUOTA_EXCEEDED,
 * `details.quota: "dryRunsPerHour"`.
 */
export async function takeDryRun(storage: StorageAdapter, tenant: string, perHour: number, now = Date.now()): Promise<void> {
  const tickets = new QuotaTickets(storage, dryRunTicketsFolder(tenant));
  const hour = hourOf(now);
  if ((await tickets.take(hour, perHour, Buffer.alloc(0))) !== undefined) return;
  throw new TesseraError('QUOTA_EXCEEDED', `Tenant "${tenant}" may ask for ${perHour} dry run(s) per hour and has this hour; publish, or retry next hour.`, {
    details: { quota: 'dryRunsPerHour', limit: perHour, used: await tickets.used(hour) },
  });
}
