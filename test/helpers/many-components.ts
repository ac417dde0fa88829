import { mkdirSync, writeFileSync } from 'node:fs';
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

/** The packaged greeting's files as `entry`'s version 1.0.0. */
function filesOf(packaged: Awaited<ReturnType<typeof packagedFixture>>, { name, description, tenant }: CatalogEntry): Map<string, Buffer> {
  const oc = { ...packaged.descriptor.oc, ...(tenant === undefined ? {} : { publisher: { tenant, date: Date.UTC(2026, 0, 1) } }) };
  const descriptor = { ...packaged.descriptor, name, version: '1.0.0', description, oc };
  return new Map([...packaged.files, ['package.json', Buffer.from(JSON.stringify(descriptor))]]);
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
  const packaged = await packagedFixture(fixture('browser-greeting'));
  // The first through the storage adapter, as a publish stores it; the others copy its layout with
  // synchronous writes, a fraction of the CPU a thousand versions cost through the adapter's.
  const [first, ...rest] = entries;
  if (first) await new FileSystemStorage(storagePath).writeVersion(first.name, '1.0.0', filesOf(packaged, first));
  for (const entry of rest) {
    const folder = path.join(storagePath, 'components', entry.name, '1.0.0');
    for (const [file, content] of filesOf(packaged, entry)) {
      mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
      writeFileSync(path.join(folder, file), content);
    }
  }
  return storagePath;
}
