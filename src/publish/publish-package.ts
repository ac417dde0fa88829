import type { DependencyPolicy } from '../config/config';
import type { StorageAdapter } from '../storage/storage-adapter';
import { checkPackage } from './check-package';
import { unpackPackage } from './unpack-package';
import { ChangeJournal } from '../catalog/change-journal';
import { writeJournaled } from '../catalog/journaled-write';

/** One upload to publish, as the front hands it over once the token and scope were checked. */
export interface PublishJob {
  name: string;
  version: string;
  /** The tenant whose token authorized the publish. */
  tenant: string;
  /** Validate only; store nothing. */
  dryRun: boolean;
}

export interface PublishRules {
  /** `limits.publishBytes`: the unpacked package is held to it (the front holds the packed one). */
  maxBytes: number;
  dependencyPolicy: DependencyPolicy;
}

/**
 * Unpacks a packed component as it arrives, checks it and stores it whole: every check runs before
 * anything is written, and storage writes a version whole, so a refused or interrupted publish
 * leaves nothing behind. Runs in a publish thread (publish-worker.ts), never on a front's event loop.
 */
export async function publishPackage(
  storage: StorageAdapter,
  job: PublishJob,
  packed: AsyncIterable<Buffer>,
  rules: PublishRules,
  notice: (message: string) => void = () => {},
): Promise<void> {
  const files = await unpackPackage(packed, rules.maxBytes);
  const descriptor = checkPackage(files, job.name, job.version, rules.dependencyPolicy);
  if (job.dryRun) return;
  descriptor.oc.publisher = { tenant: job.tenant, date: Date.now() };
  files.set('package.json', Buffer.from(JSON.stringify(descriptor, null, 2)));
  // Written with its journal entry, as every version is: other replicas' polls read the journal.
  await writeJournaled(storage, new ChangeJournal(storage), job.name, job.version, files, notice);
}
