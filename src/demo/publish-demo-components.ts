import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Catalog } from '../catalog/catalog';
import { TesseraError } from '../errors/errors';
import { packageComponent } from '../packager/package-component';
import { stopBundler } from '../packager/stop-bundler';
import type { StorageAdapter } from '../storage/storage-adapter';

/** The demo component folders shipped in the repository. */
export const DEMO_COMPONENTS_DIR = path.join(__dirname, '..', '..', '..', 'demo', 'components');

/** Packages and stores each demo component whose version storage lacks; answers what it published. */
export async function publishDemoComponents(storage: StorageAdapter, catalog: Catalog): Promise<string[]> {
  const published: string[] = [];
  for (const folder of (await readdir(DEMO_COMPONENTS_DIR)).sort()) {
    const packaged = await packageComponent(path.join(DEMO_COMPONENTS_DIR, folder));
    const { name, version } = packaged.descriptor;
    if (catalog.versions(name).includes(version)) continue;
    try {
      await storage.writeVersion(name, version, packaged.files);
      published.push(`${name}@${version}`);
    } catch (error) {
      if (!(error instanceof TesseraError && error.code === 'ALREADY_EXISTS')) throw error;
    }
    await catalog.add(name, version);
  }
  await stopBundler();
  return published;
}
