/**
 * A publish thread (started by the pool of publish-pool.ts): receives an upload over its channel,
 * unpacks, checks and stores it, and answers how it ended. Builds its own storage from the
 * registry's settings, kept for the thread's life.
 */
import '../enable-compile-cache';
import { workerData, type MessagePort } from 'node:worker_threads';
import { createStorage } from '../storage/create-storage';
import type { StorageSettings } from '../storage/storage-settings';
import { receivePackage } from './package-channel';
import { outcomeOf, type PublishOutcome } from './publish-outcome';
import { publishPackage, type PublishJob, type PublishRules } from './publish-package';

/** What every publish thread of a pool is started with. */
export interface PublishThreadData {
  storage: StorageSettings;
  rules: PublishRules;
}

export interface PublishTask {
  job: PublishJob;
  /** The upload's channel (package-channel.ts). */
  body: MessagePort;
}

const data = workerData as PublishThreadData;
const storage = createStorage(data.storage);

/** The task function the pool calls: never throws, so that a refusal keeps its code across threads. */
export async function publishTask(task: PublishTask): Promise<PublishOutcome> {
  try {
    // What the journal could not confirm is the operator's to read, in the registry's standard error.
    await publishPackage(storage, task.job, receivePackage(task.body), data.rules, (message) => process.stderr.write(`publish: ${message}\n`));
    return { ok: true };
  } catch (error) {
    return outcomeOf(error);
  } finally {
    task.body.close();
  }
}
