import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Catalog } from '../catalog/catalog';
import { TesseraError } from '../errors/errors';

/** The demo component folders shipped in the repository. */
export const DEMO_COMPONENTS_DIR = path.join(__dirname, '..', '..', '..', 'demo', 'components');

/**
 * Packages and stores each demo component whose version storage lacks; answers what it published.
 * The packager (bundler, sandbox) is loaded only when one is missing, so a registry restarted on
 * storage that has the demo never holds it.
 */
export async function publishDemoComponents(catalog: Catalog): Promise<string[]> {
  const published: string[] = [];
  let packager: typeof import('../packager/package-component') | undefined;
  try {
    for (const folder of (await readdir(DEMO_COMPONENTS_DIR)).sort()) {
      const dir = path.join(DEMO_COMPONENTS_DIR, folder);
      const declared = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { name: string; version: string };
      if (catalog.versions(declared.name).includes(declared.version)) continue;
      packager ??= await import('../packager/package-component');
      const packaged = await packager.packageComponent(dir);
      const { name, version } = packaged.descriptor;
      try {
        await catalog.publish(name, version, packaged.files);
        published.push(`${name}@${version}`);
      } catch (error) {
        if (!(error instanceof TesseraError && error.code === 'ALREADY_EXISTS')) throw error;
      }
      await catalog.add(name, version);
    }
  } finally {
    // esbuild's service would keep a failed start from exiting; neither helper is needed once the demo is stored.
    if (packager) await (await import('../packager/stop-packager-processes')).stopPackagerProcesses();
  }
  return published;
}
