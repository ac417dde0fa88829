import { TesseraError } from '../errors/errors';
import type { StorageAdapter } from '../storage/storage-adapter';
import { currentOwner } from './name-owner';
import { createNameRecord, type NameRecord } from './name-records';

/**
 * The administrator moves a name (decisions §15): to another tenant (`to` a tenant's name), or
 * releases it (`to` null) for the next tenant whose patterns cover it to claim with a publish.
 * Written as the name's next generation, created once: two administrators moving one name at once
 * cannot both win; the loser is told to look again. Answers the new record, and whether it changed
 * anything (moving a name to its owner, or releasing a free one, writes nothing), and who owned it before.
 */
export async function moveName(
  storage: StorageAdapter,
  name: string,
  to: string | null,
  defaultTenant: string,
): Promise<{ record: NameRecord; changed: boolean; previous: string | null }> {
  const owner = await currentOwner(storage, name, defaultTenant);
  if (owner === undefined && to === null) throw new TesseraError('NOT_FOUND', `No tenant owns the name "${name}": there is nothing to release.`);
  const previous = owner?.tenant ?? null;
  if (owner !== undefined && owner.tenant === to) return { record: owner, changed: false, previous };
  const record: NameRecord = {
    name,
    generation: (owner?.generation ?? 0) + 1,
    tenant: to,
    action: to === null ? 'release' : 'transfer',
    date: new Date().toISOString(),
    by: 'admin',
  };
  if (!(await createNameRecord(storage, record))) {
    throw new TesseraError('ALREADY_EXISTS', `The name "${name}" changed hands meanwhile; read it again with GET /~admin/names/${name}, then retry.`);
  }
  return { record, changed: true, previous };
}
