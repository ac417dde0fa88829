/**
 * A publish thread (started by the pool of publish-pool.ts): reads an upload from the file the
 * front received it into, unpacks, checks and stores it, and answers how it ended. Builds its own
 * storage from the registry's settings, kept for the thread's life.
 */
import '../enable-compile-cache';
import { createReadStream } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { createStorage } from '../storage/create-storage';
import type { StorageSettings } from '../storage/storage-settings';
import { checksBegan, markChecked, type CheckState } from './check-deadline';
import { outcomeOf, type PublishOutcome } from './publish-outcome';
import { publishPackage, type PublishJob, type PublishRules } from './publish-package';

/** What every publish thread of a pool is started with. */
export interface PublishThreadData {
  storage: StorageSettings;
  rules: PublishRules;
  /** `limits.publishCheckSeconds`, for the refusal of a check that passed it. */
  checkSeconds: number;
}

export interface PublishTask {
  job: PublishJob;
  /** The upload, received whole on disk (spool-upload.ts); read from here only once this thread starts on it. */
  file: string;
  /** Shared with the pool's timer: whether the checks passed before the deadline (check-deadline.ts). */
  checkState: CheckState;
}

const data = workerData as PublishThreadData;
const storage = createStorage(data.storage);

/** The task function the pool calls: never throws, so that a refusal keeps its code across threads. */
export async function publishTask(task: PublishTask): Promise<PublishOutcome> {
  checksBegan(task.checkState);
  try {
    await publishPackage(
      storage,
      task.job,
      createReadStream(task.file),
      data.rules,
      // What the journal could not confirm is the operator's to read, in the registry's standard error.
      (message) => process.stderr.write(`publish: ${message}\n`),
      () => markChecked(task.checkState, data.checkSeconds),
    );
    return { ok: true };
  } catch (error) {
    return outcomeOf(error);
  }
}
