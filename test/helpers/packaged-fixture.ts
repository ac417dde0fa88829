import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PackagedComponent } from '../../src/packager/package-component';
import { filesUnder } from './files-under';

const REPO_ROOT = path.join(__dirname, '..', '..', '..');
/** One folder per checkout: another checkout's tests on this machine keep their own builds' packages. */
const CACHE = path.join(os.tmpdir(), 'tessera-packaged-fixtures', createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12));

/** A package as JSON: its files in base64. */
interface StoredPackage {
  descriptor: PackagedComponent['descriptor'];
  files: Record<string, string>;
}
const stored = (packaged: PackagedComponent): StoredPackage => ({ descriptor: packaged.descriptor, files: Object.fromEntries([...packaged.files].map(([name, bytes]) => [name, bytes.toString('base64')])) });
const unstored = ({ descriptor, files }: StoredPackage): PackagedComponent => ({ descriptor, files: new Map(Object.entries(files).map(([name, base64]) => [name, Buffer.from(base64, 'base64')])) });

/**
 * A component folder's package, made once per build and kept in the system's temporary folder, so
 * that most test files never start the packager's processes (esbuild's service, the reader of
 * server entries) nor pay for a packaging. Keyed by the build and by the folder's path and
 * contents. `npm test` fills it for every fixture before the suite (warm-fixture-cache.ts).
 */
export async function packagedFixture(dir: string): Promise<PackagedComponent> {
  const build = await stat(path.join(REPO_ROOT, 'dist', '.built')).then((built) => String(Math.round(built.mtimeMs)), () => 'unbuilt');
  const folder = path.join(CACHE, build);
  const file = path.join(folder, `${await keyOf(dir)}.json`);
  try {
    return unstored(JSON.parse(await readFile(file, 'utf8')) as StoredPackage);
  } catch {
    // not packaged yet in this build
  }
  const { packageComponent } = await import('../../src/packager/package-component');
  const packaged = await packageComponent(dir);
  // Best effort: another test file may be clearing the folder meanwhile.
  try {
    await removeOtherBuilds(build);
    await mkdir(folder, { recursive: true });
    const written = `${file}.${process.pid}.tmp`;
    await writeFile(written, JSON.stringify(stored(packaged)));
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
