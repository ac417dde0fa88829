import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileSystemStorage } from '../../src/storage/fs-storage';
import { packagedFixture } from './packaged-fixture';
import { fixture } from './start-registry';

export interface CatalogEntry {
  name: string;
  description: string;
  /** The publishing tenant; none for a version stored without a token's publish. */
  tenant?: string;
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

/**
 * A storage folder holding version 1.0.0 of each entry, as its publish would have stored it: the
 * same small packaged component under each name, with that description and publisher. Written
 * directly, so that a catalog of a thousand takes seconds, not a thousand publishes. Removed when
 * the test ends; start a registry on it with `config.storagePath`.
 */
export async function storageWithComponents(t: Teardown, entries: readonly CatalogEntry[]): Promise<string> {
  const storagePath = await mkdtemp(path.join(os.tmpdir(), 'tessera-catalog-'));
  t.teardown(() => rm(storagePath, { recursive: true, force: true }));
  const storage = new FileSystemStorage(storagePath);
  const packaged = await packagedFixture(fixture('browser-greeting'));
  for (const { name, description, tenant } of entries) {
    const oc = { ...packaged.descriptor.oc, ...(tenant === undefined ? {} : { publisher: { tenant, date: Date.UTC(2026, 0, 1) } }) };
    const descriptor = { ...packaged.descriptor, name, version: '1.0.0', description, oc };
    await storage.writeVersion(name, '1.0.0', new Map([...packaged.files, ['package.json', Buffer.from(JSON.stringify(descriptor))]]));
  }
  return storagePath;
}
