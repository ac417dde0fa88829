import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileSystemStorage } from '../../src/storage/fs-storage';
import { createS3Client, S3Storage } from '../../src/storage/s3-storage';
import type { StorageAdapter } from '../../src/storage/storage-adapter';
import { packagedFixture } from './packaged-fixture';
import { BUCKET, startS3Server } from './s3-server';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** One storage, shared by several replicas: each `open()` is an adapter of its own over the same files or bucket. */
export interface SharedStorage {
  kind: 'file system' | 'S3';
  open(): StorageAdapter;
}

/** A fresh folder, removed when the test ends. */
export async function fileSystemStorage(t: Teardown): Promise<SharedStorage> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'tessera-catalog-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  return { kind: 'file system', open: () => new FileSystemStorage(root) };
}

/**
 * A prefix of a bucket on a real S3-protocol server on loopback (fauxqs, which ignores conditional
 * writes: concurrent publishes of one version are decided by claims, here with a short settle).
 */
export async function s3Storage(t: Teardown, prefix = 'catalog-test'): Promise<SharedStorage> {
  const server = await startS3Server(t);
  return {
    kind: 'S3',
    open: () => {
      // A busy machine's allowance for each call (a call past 5 s was seen beside two suites): no test here times the storage.
      const storage = new S3Storage({ bucket: BUCKET, prefix: `${prefix}/` }, { timeoutMs: 30_000, settleMs: 100, client: createS3Client(30_000, server.env) });
      t.teardown(() => storage.close());
      return storage;
    },
  };
}

/**
 * Stores a packaged fixture under many names and versions straight into storage, as a registry
 * without a journal wrote them: `<prefix>-<n>` at 1.0.0, 1.0.1… (`versions` each).
 */
export async function storeCopies(storage: StorageAdapter, dir: string, prefix: string, components: number, versions: number): Promise<Array<{ name: string; version: string }>> {
  const { descriptor, files } = await packagedFixture(dir);
  const stored = Array.from({ length: components * versions }, (_, index) => ({ name: `${prefix}-${Math.floor(index / versions)}`, version: `1.0.${index % versions}` }));
  const queue = [...stored];
  const writer = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const copy = new Map(files);
      copy.set('package.json', Buffer.from(JSON.stringify({ ...descriptor, name: next.name, version: next.version, description: `Copy ${next.name}@${next.version}` })));
      await storage.writeVersion(next.name, next.version, copy);
    }
  };
  await Promise.all(Array.from({ length: 16 }, writer));
  return stored;
}
