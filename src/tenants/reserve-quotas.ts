import { TesseraError } from '../errors/errors';
import type { StorageAdapter } from '../storage/storage-adapter';
import { QuotaLedger } from './quota-ledger';
import { bytesLedgerFolder, hourOf, publishTicketsFolder, versionsLedgerFolder } from './quota-folders';
import { QuotaTickets } from './quota-tickets';
import type { QuotaName, TenantQuotas } from './tenant-records';

/** What one publish takes of its tenant's quotas, to give back when it does not store its version. */
export interface QuotaReservation {
  giveBack(): Promise<void>;
}

export interface QuotaClaim {
  tenant: string;
  name: string;
  version: string;
  /** Unpacked bytes of the package. */
  bytes: number;
}

const SENTENCES: Record<QuotaName, (limit: number) => string> = {
  publishesPerHour: (limit) => `may publish ${limit} time(s) per hour and has this hour`,
  versionsPerComponent: (limit) => `may keep ${limit} version(s) of each component and this one has them`,
  storageBytes: (limit) => `may store ${limit} bytes of packages and this publish would pass that`,
};

export const quotaExceeded = (tenant: string, quota: QuotaName, limit: number, used: number): TesseraError =>
  new TesseraError('QUOTA_EXCEEDED', `Tenant "${tenant}" ${SENTENCES[quota](limit)}; nothing was stored.`, { details: { quota, limit, used } });

/**
 * Takes one publish's share of each quota the tenant has (and counts its publishes and bytes in any
 * case), each in one atomic step of the shared store (see QuotaTickets, QuotaLedger), so replicas
 * publishing at once cannot pass a quota together. Every quota is looked at first, before any unit
 * is taken: a publish that one of them refuses takes nothing. Then they are taken from the narrowest
 * (this component's versions) to the widest (the tenant's publishes this hour), so a publish still
 * refused while taking (another took the last unit meanwhile) has held only units of its own
 * component, never the hour's last publish that another component of the tenant needs. The quota
 * that refuses gives back what was taken before it and throws QUOTA_EXCEEDED naming itself.
 */
export async function reserveQuotas(storage: StorageAdapter, quotas: TenantQuotas, claim: QuotaClaim, now = Date.now()): Promise<QuotaReservation> {
  // Publishes and bytes are counted with or without a limit: `tenant show` and the metrics tell each stored tenant's use.
  const tickets = new QuotaTickets(storage, publishTicketsFolder(claim.tenant));
  const hour = hourOf(now);
  const bytes = new QuotaLedger(storage, bytesLedgerFolder(claim.tenant));
  // Versions stored before the tenant had this quota count from its first publish under it.
  const versions =
    quotas.versionsPerComponent === undefined ? undefined : new QuotaLedger(storage, versionsLedgerFolder(claim.tenant, claim.name), async () => (await storage.listVersions(claim.name)).length);

  if (versions) {
    const total = await versions.total();
    if (total + 1 > quotas.versionsPerComponent!) throw quotaExceeded(claim.tenant, 'versionsPerComponent', quotas.versionsPerComponent!, total);
  }
  if (quotas.storageBytes !== undefined) {
    const total = await bytes.total();
    if (total + claim.bytes > quotas.storageBytes) throw quotaExceeded(claim.tenant, 'storageBytes', quotas.storageBytes, total);
  }
  if (quotas.publishesPerHour !== undefined) {
    const used = await tickets.used(hour);
    if (used >= quotas.publishesPerHour) throw quotaExceeded(claim.tenant, 'publishesPerHour', quotas.publishesPerHour, used);
  }

  const taken: Array<() => Promise<unknown>> = [];
  const giveBack = async (): Promise<void> => {
    for (const undo of taken.reverse()) await undo();
  };
  try {
    if (versions) {
      const added = await versions.add(1, quotas.versionsPerComponent);
      if ('refused' in added) throw quotaExceeded(claim.tenant, 'versionsPerComponent', quotas.versionsPerComponent!, added.total);
      taken.push(() => versions.add(-1));
    }
    const added = await bytes.add(claim.bytes, quotas.storageBytes);
    if ('refused' in added) throw quotaExceeded(claim.tenant, 'storageBytes', quotas.storageBytes!, added.total);
    taken.push(() => bytes.add(-claim.bytes));
    const ticket = await tickets.take(hour, quotas.publishesPerHour ?? Infinity, Buffer.from(JSON.stringify({ component: `${claim.name}@${claim.version}` })));
    if (ticket === undefined) throw quotaExceeded(claim.tenant, 'publishesPerHour', quotas.publishesPerHour!, await tickets.used(hour));
    taken.push(() => tickets.giveBack(ticket));
  } catch (error) {
    await giveBack();
    throw error;
  }
  return { giveBack };
}
