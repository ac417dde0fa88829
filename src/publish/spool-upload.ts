import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { TesseraError } from '../errors/errors';
import { isRunning } from '../process-running';
import { packageTooLarge, uploadStopped } from './upload-errors';

/** The temporary folders of uploads arriving, in the system's temporary folder: `tessera-upload-<pid>-…`. */
export const SPOOL_PREFIX = 'tessera-upload-';

/**
 * Removes the folders of uploads a registry process that no longer runs was receiving (one killed
 * could not remove its own); answers how many. Those of running processes stay.
 */
export async function removeSpoolsOfEndedProcesses(): Promise<number> {
  let removed = 0;
  for (const entry of await readdir(os.tmpdir())) {
    const pid = entry.startsWith(SPOOL_PREFIX) ? Number(/^(\d+)-/.exec(entry.slice(SPOOL_PREFIX.length))?.[1]) : 0;
    if (pid > 0 && !isRunning(pid)) {
      await rm(path.join(os.tmpdir(), entry), { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}

/** An upload received whole into a temporary file, which `remove` deletes. */
export interface SpooledUpload {
  file: string;
  remove(): Promise<void>;
}

/**
 * Receives an upload whole, into a temporary file, before a publish thread is taken for it: a thread
 * then reads the package at the speed of the disk, and a client sending slowly (or not at all) holds
 * its own connection and at most `limit` bytes of disk, never the thread every tenant's publish needs.
 * Rejects with PAYLOAD_TOO_LARGE past `limit` bytes, or with the reason the body failed (a client that
 * went away mid-upload); the file is removed then. The body is never destroyed here: the front still
 * answers on its connection, and whatever the body still brings is read and dropped.
 */
export async function spoolUpload(body: Readable, limit: number): Promise<SpooledUpload> {
  // A client gone while its upload waited for a slot: its body will say nothing more.
  if (body.destroyed || body.readableAborted) throw uploadStopped();
  const folder = await mkdtemp(path.join(os.tmpdir(), `${SPOOL_PREFIX}${process.pid}-`));
  const remove = () => rm(folder, { recursive: true, force: true });
  const file = path.join(folder, 'package.tgz');
  const out = createWriteStream(file);
  try {
    await new Promise<void>((resolve, reject) => {
      let received = 0;
      const finish = (error?: Error) => {
        body.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
        // A write still under way may fail once the file is given up: nobody waits for it.
        out.off('error', onError).on('error', () => {});
        if (!error) {
          out.end(() => resolve());
          return;
        }
        body.on('error', () => {});
        body.resume();
        out.destroy();
        reject(error);
      };
      const onData = (chunk: Buffer) => {
        received += chunk.length;
        if (received > limit) return finish(packageTooLarge(limit));
        // The disk sets the pace: the body waits while the file catches up.
        if (!out.write(chunk)) {
          body.pause();
          out.once('drain', () => body.resume());
        }
      };
      const onEnd = () => finish();
      // A coded error is the body's own refusal (a multipart upload's limits); any other, a connection lost or a disk failing.
      const onError = (error: Error) => finish(error instanceof TesseraError ? error : uploadStopped());
      const onClose = () => finish(uploadStopped());
      out.on('error', onError);
      body.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
    });
  } catch (error) {
    await remove();
    throw error;
  }
  return { file, remove };
}
