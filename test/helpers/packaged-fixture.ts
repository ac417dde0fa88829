import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PackagedComponent } from '../../src/packager/package-component';
import { filesUnder } from './files-under';

const REPO_ROOT = path.join(__dirname, '..', '..', '..');
/** One folder per checkout: another checkout's tests on this machine keep their own builds' packages. */
const CACHE = path.join(os.tmpdir(), 'tessera-packaged-fixtures', createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12));
/** The argument that makes this file a child that packages one folder (`npm test` runs test files with Node's snapshot). */
const CHILD = '--package-one-fixture';

/** A package as JSON: its files in base64. */
interface StoredPackage {
  descriptor: PackagedComponent['descriptor'];
  files: Record<string, string>;
}
const stored = (packaged: PackagedComponent): StoredPackage => ({ descriptor: packaged.descriptor, files: Object.fromEntries([...packaged.files].map(([name, bytes]) => [name, bytes.toString('base64')])) });
const unstored = ({ descriptor, files }: StoredPackage): PackagedComponent => ({ descriptor, files: new Map(Object.entries(files).map(([name, base64]) => [name, Buffer.from(base64, 'base64')])) });

/**
 * A component folder's package, made once per build and kept in the system's temporary folder, so
 * that most test files never load the packager: esbuild's service, and isolated-vm (which reads a
 * server entry's definition), whose thread pool has been seen holding a process at its exit after
 * all its tests had passed. Keyed by the build and by the folder's path and contents. `npm test`
 * fills it for every fixture before the suite (warm-fixture-cache.ts). A folder not packaged yet is
 * packaged in a child process when this one runs with Node's snapshot (as `npm test` runs test
 * files): isolated-vm needs Node started with --no-node-snapshot.
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
  if (!process.execArgv.includes('--no-node-snapshot')) return packagedInChild(dir);
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

/** Packages `dir` (and keeps it) in a child started with --no-node-snapshot, killed once it has answered (see warm-fixture-cache.ts). */
function packagedInChild(dir: string): Promise<PackagedComponent> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [CHILD, dir], { execArgv: ['--no-node-snapshot'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (answer: { packaged: StoredPackage } | { error: string }) => {
      child.kill('SIGKILL');
      if ('packaged' in answer) resolve(unstored(answer.packaged));
      else reject(new Error(answer.error));
    });
    child.once('exit', (code, signal) => reject(new Error(`packaging ${dir} ended (${signal ?? code}) without an answer`)));
  });
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

if (process.argv[2] === CHILD) {
  void packagedFixture(process.argv[3]!).then(
    (packaged) => process.send!({ packaged: stored(packaged) }),
    (error: Error) => process.send!({ error: error.message }),
  );
}
