import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEMO_COMPONENTS_DIR } from '../src/demo/publish-demo-components';
import { packageComponent } from '../src/packager/package-component';
import { FileSystemStorage } from '../src/storage/fs-storage';

/** The repository root (the benchmarks run from dist/bench/). */
export const REPO_ROOT = path.join(__dirname, '..', '..');
const BENCH_COMPONENTS = path.join(REPO_ROOT, 'bench', 'components');

export const demoComponent = (name: string): string => path.join(DEMO_COMPONENTS_DIR, name);
export const benchComponent = (name: string): string => path.join(BENCH_COMPONENTS, name);

/** A temporary folder, removed by `remove()`. */
export async function temporaryFolder(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), `tessera-bench-${prefix}-`));
  return { path: folder, remove: () => rm(folder, { recursive: true, force: true }) };
}

/** Packages component source folders, a few at a time, into the file-system storage at `storagePath`. */
export async function packageInto(storagePath: string, componentDirs: string[], parallel = 4): Promise<void> {
  const storage = new FileSystemStorage(storagePath);
  const queue = [...componentDirs];
  const packer = async () => {
    for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
      const packaged = await packageComponent(dir);
      await storage.writeVersion(packaged.descriptor.name, packaged.descriptor.version, packaged.files);
    }
  };
  await Promise.all(Array.from({ length: parallel }, packer));
}

/** Copies a template component `count` times into `folder`, as versions 1.0.0, 1.0.1, …; answers the copies. */
export async function generateVersions(templateDir: string, folder: string, count: number): Promise<string[]> {
  const descriptor = JSON.parse(await readFile(path.join(templateDir, 'package.json'), 'utf8')) as { version: string };
  const copies: string[] = [];
  for (let i = 0; i < count; i++) {
    const copy = path.join(folder, `v${i}`);
    await cp(templateDir, copy, { recursive: true });
    await writeFile(path.join(copy, 'package.json'), JSON.stringify({ ...descriptor, version: `1.0.${i}` }, null, 2));
    copies.push(copy);
  }
  return copies;
}
