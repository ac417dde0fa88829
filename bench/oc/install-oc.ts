import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export const OC_VERSION = '0.50.44';

/** An install of the `oc` package, outside the project: OC is what the registry is measured against, not one of its dependencies. */
export interface OcInstall {
  /** The install's node_modules, where OC's CLI looks for template compilers. */
  nodeModules: string;
  /** The `oc` package folder, to `require`. */
  ocPackage: string;
  /** OC's command-line entry (its package.json `bin`). */
  cli: string;
  /** The oc-template-es6-compiler that came with it. */
  es6CompilerVersion: string;
}

const execFileAsync = promisify(execFile);

const readJson = async <T>(file: string): Promise<T> => JSON.parse(await readFile(file, 'utf8')) as T;

/** What npm said went wrong, without its warnings and the pointer to its log; undefined when it said nothing. */
function npmErrors(stderr: string): string | undefined {
  const errors = stderr
    .split('\n')
    .filter((line) => line.startsWith('npm error ') && !line.includes('complete log'))
    .map((line) => line.slice('npm error '.length));
  return errors.length > 0 ? errors.slice(0, 2).join('; ') : undefined;
}

/** OC, installed by npm on first use into a cache folder of the system's temporary folder, and reused after. */
export async function installOc(): Promise<OcInstall> {
  const folder = path.join(os.tmpdir(), 'tessera-bench-oc', OC_VERSION);
  const nodeModules = path.join(folder, 'node_modules');
  const ocPackage = path.join(nodeModules, 'oc');
  if (!existsSync(path.join(ocPackage, 'package.json'))) {
    console.log(`  installing oc@${OC_VERSION} with npm (first use)…`);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'package.json'), JSON.stringify({ name: 'bench-oc', private: true }));
    await execFileAsync('npm', ['install', '--no-audit', '--no-fund', '--no-save', `oc@${OC_VERSION}`], { cwd: folder }).catch((error: Error & { stderr?: string }) => {
      throw new Error(`npm install oc@${OC_VERSION} failed: ${npmErrors(error.stderr ?? '') ?? error.message.split('\n')[0]}`);
    });
  }
  const { bin } = await readJson<{ bin: string }>(path.join(ocPackage, 'package.json'));
  const compiler = await readJson<{ version: string }>(path.join(nodeModules, 'oc-template-es6-compiler', 'package.json'));
  return { nodeModules, ocPackage, cli: path.join(ocPackage, bin), es6CompilerVersion: compiler.version };
}
