import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PackagedComponent } from '../../src/packager/package-component';
import { filesUnder } from './files-under';

const REPO_ROOT = path.join(__dirname, '..', '..', '..');
const CACHE = path.join(os.tmpdir(), 'tessera-packaged-fixtures');

/**
 * A component folder's package, made once per build and kept in the system's temporary folder, so
 * that most test files never load the packager: esbuild's service, and isolated-vm (which reads a
 * server entry's definition), whose thread pool has been seen holding a process at its exit after
 * all its tests had passed. Keyed by the build and by the folder's path and contents. `npm test`
 * fills it for every fixture before the suite (warm-fixture-cache.ts).
 */
export async function packagedFixture(dir: string): Promise<PackagedComponent> {
  const build = await stat(path.join(REPO_ROOT, 'dist', '.built')).then((built) => String(Math.round(built.mtimeMs)), () => 'unbuilt');
  const folder = path.join(CACHE, build);
  const file = path.join(folder, `${await keyOf(dir)}.json`);
  try {
    const cached = JSON.parse(await readFile(file, 'utf8')) as { descriptor: PackagedComponent['descriptor']; files: Record<string, string> };
    return { descriptor: cached.descriptor, files: new Map(Object.entries(cached.files).map(([name, base64]) => [name, Buffer.from(base64, 'base64')])) };
  } catch {
    // not packaged yet in this build
  }
  const { packageComponent } = await import('../../src/packager/package-component');
  const packaged = await packageComponent(dir);
  // Best effort: another checkout's tests on this machine may be clearing the folder meanwhile.
  try {
    await removeOtherBuilds(build);
    await mkdir(folder, { recursive: true });
    const written = `${file}.${process.pid}.tmp`;
    await writeFile(written, JSON.stringify({ descriptor: packaged.descriptor, files: Object.fromEntries([...packaged.files].map(([name, bytes]) => [name, bytes.toString('base64')])) }));
    await rename(written, file);
  } catch {
    // kept for the next test file, or not
  }
  return packaged;
}

/** Packages of earlier builds are of no use any more. */
async function removeOtherBuilds(build: string): Promise<void> {
  const folders = await readdir(CACHE).catch(() => [] as string[]);
  await Promise.all(folders.filter((name) => name !== build).map((name) => rm(path.join(CACHE, name), { recursive: true, force: true })));
}

async function keyOf(dir: string): Promise<string> {
  const hash = createHash('sha256').update(dir);
  for (const name of await filesUnder(dir)) hash.update(`\0${name}\0`).update(await readFile(path.join(dir, name)));
  return hash.digest('hex');
}
