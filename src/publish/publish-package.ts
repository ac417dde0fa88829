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
}

/**
 * Unpacks a packed component as it arrives, checks it and stores it whole: every check runs before
 * anything is written, and storage writes a version whole, so a refused or interrupted publish
 * leaves nothing behind. Runs in a publish thread (publish-worker.ts), never on a front's event loop.
 *
 * A stored tenant's quotas are taken in the shared store before the version is written, and given
 * back when it is not. A revoke racing the publish is decided by storage, the same on every replica:
 * the token's revocation is read right before the version is written; a revocation stored before that
 * read refuses the publish (UNAUTHORIZED), one stored after it comes after the publish.
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
  if (job.dryRun) return;
  descriptor.oc.publisher = { tenant: job.tenant, date: Date.now() };
  files.set('package.json', Buffer.from(JSON.stringify(descriptor, null, 2)));
  const bytes = [...files.values()].reduce((sum, content) => sum + content.length, 0);
  const reservation = job.quotas ? await reserveQuotas(storage, job.quotas, { tenant: job.tenant, name: job.name, version: job.version, bytes }) : undefined;
  try {
    if (job.storedToken && (await readRevocation(storage, job.tokenId))) {
      throw revokedTokenError();
    }
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
