import { createHash } from 'node:crypto';
import { AuditLog } from '../audit/audit-log';
import { revokedTokenError } from './upload-errors';
import type { StorageAdapter } from '../storage/storage-adapter';
import { reserveQuotas } from '../tenants/reserve-quotas';
import type { TenantQuotas } from '../tenants/tenant-records';
import { readRevocation } from '../tenants/token-store';
import { checkPackage, type PackageRules } from './check-package';
import { unpackPackage } from './unpack-package';
import { ChangeJournal } from '../catalog/change-journal';
import { writeJournaled } from '../catalog/journaled-write';
import { assertMayClaim, claimName, currentOwner } from '../names/name-owner';

/** One upload to publish, as the front hands it over once the token and scope were checked. */
export interface PublishJob {
  name: string;
  version: string;
  /** The tenant whose token authorized the publish. */
  tenant: string;
  /** The id of that token (`config:<tenant>` for a configured one), for the audit log. */
  tokenId: string;
  /** Whether the token lives in storage: its revocation is read again right before the version is stored. */
  storedToken: boolean;
  /** The tenant's quotas when it is a stored tenant (none for a tenant only configured). */
  quotas?: TenantQuotas;
  /** The address of the client that uploaded it, for the audit log. */
  client?: string;
  /** Validate only; store nothing. */
  dryRun: boolean;
}

export interface PublishRules extends PackageRules {
  /** `limits.publishBytes`: the unpacked package is held to it (the front holds the packed one). */
  maxBytes: number;
  /** `tenants.default`: the owner of a name stored before claims whose first version recorded no publisher. */
  defaultTenant: string;
}

/**
 * Unpacks a packed component as it arrives, checks it and stores it whole: every check runs before
 * anything is written, and storage writes a version whole, so a refused or interrupted publish
 * leaves nothing behind. Runs in a publish thread (publish-worker.ts), never on a front's event loop.
 *
 * Storage decides, after the upload is complete and right before the version is written, every
 * question another request or replica could race (decisions §15): who owns the name (a claim
 * created once, src/names), the tenant's quotas (units created once; looked at before any is taken,
 * so a publish one refuses holds none another needs), and whether the token was revoked (a
 * revocation stored before that read refuses the publish, one stored after it comes after the
 * publish). All of these are decided before the name is claimed: a claim, once created, is never
 * taken back, since another publish of the tenant may store its version under it at once; a publish
 * that stores nothing gives back its quota units.
 */
export async function publishPackage(
  storage: StorageAdapter,
  job: PublishJob,
  packed: AsyncIterable<Buffer>,
  rules: PublishRules,
  notice: (message: string) => void = () => {},
  /** Told once every check passed, before anything is written; may throw to stop the publish there (check-deadline.ts). */
  checked: () => void = () => {},
): Promise<void> {
  const hash = createHash('sha256');
  const files = await unpackPackage(hashing(packed, hash), rules.maxBytes, rules.serverScript.bytes);
  const sha256 = hash.digest('hex');
  const descriptor = checkPackage(files, job.name, job.version, rules);
  checked();
  // Read before anything is taken: a dry run answers what the publish would, and a refusal takes nothing.
  const owner = await currentOwner(storage, job.name, rules.defaultTenant);
  assertMayClaim(owner, job.tenant, job.name);
  if (job.dryRun) return;
  // The claim's generation scopes the version's cookies: a name's next owner never reads its former owner's.
  // Known for sure once claimed; the one it will be unless the name changes hands meanwhile counts its bytes.
  const stamp = (generation: number): number => {
    descriptor.oc.publisher = { tenant: job.tenant, date: Date.now(), generation };
    files.set('package.json', Buffer.from(JSON.stringify(descriptor, null, 2)));
    return [...files.values()].reduce((sum, content) => sum + content.length, 0);
  };
  const bytes = stamp(owner?.tenant === job.tenant ? owner.generation : (owner?.generation ?? 0) + 1);
  // Everything that can refuse the publish is decided before the name is claimed: a claim is created
  // once and never taken back (another publish of the tenant may store its version under it at once).
  const reservation = job.quotas ? await reserveQuotas(storage, job.quotas, { tenant: job.tenant, name: job.name, version: job.version, bytes }) : undefined;
  try {
    if (job.storedToken && (await readRevocation(storage, job.tokenId))) {
      throw revokedTokenError();
    }
    const { record: claim } = await claimName(storage, job.name, { tenant: job.tenant, by: job.tokenId, version: job.version }, rules.defaultTenant);
    if (claim.generation !== descriptor.oc.publisher!.generation) stamp(claim.generation);
    // Written with its journal entry, as every version is: other replicas' polls read the journal.
    await writeJournaled(storage, new ChangeJournal(storage), job.name, job.version, files, notice);
  } catch (error) {
    await reservation?.giveBack().catch((failure: Error) => notice(`the quotas taken by ${job.name}@${job.version} could not be given back: ${failure.message}`));
    throw error;
  }
  await new AuditLog(storage)
    .append({ action: 'publish', tenant: job.tenant, tokenId: job.tokenId, component: `${job.name}@${job.version}`, sha256, client: job.client })
    .catch((error: Error) => notice(`the audit entry of ${job.name}@${job.version} could not be written: ${error.message}`));
}

/** The upload's chunks, each also fed to `hash`: the package's sha256 as uploaded, for the audit log. */
async function* hashing(packed: AsyncIterable<Buffer>, hash: ReturnType<typeof createHash>): AsyncGenerator<Buffer> {
  for await (const chunk of packed) {
    hash.update(chunk);
    yield chunk;
  }
}
