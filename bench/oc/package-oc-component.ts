import { execFile } from 'node:child_process';
import { cp, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { temporaryFolder } from '../bench-storage';
import type { OcInstall } from './install-oc';

const execFileAsync = promisify(execFile);

/** The last line OC's CLI printed (it says why it failed there), without its colours. */
const lastLine = (output: string): string | undefined =>
  output
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .pop();

/**
 * Packages an OC component with OC's own CLI (`oc package`: the production build) and files it
 * where an OC registry over the storage folder `storagePath` reads it: `components/<name>/<version>/`.
 */
export async function packageOcComponent(install: OcInstall, componentDir: string, storagePath: string): Promise<void> {
  // A copy, so that the CLI's `_package` and the link below stay out of the repository.
  const work = await temporaryFolder('oc-package');
  try {
    const copy = path.join(work.path, path.basename(componentDir));
    await cp(componentDir, copy, { recursive: true });
    // The CLI loads the template compiler from the component's node_modules, and tries to npm-install it when it is not there.
    await symlink(install.nodeModules, path.join(copy, 'node_modules'), 'dir');
    await execFileAsync(process.execPath, [install.cli, 'package', copy]).catch((error: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(`oc package ${path.basename(componentDir)} failed: ${lastLine(`${error.stdout ?? ''}\n${error.stderr ?? ''}`) ?? error.message.split('\n')[0]}`);
    });
    const packaged = path.join(copy, '_package');
    const { name, version } = JSON.parse(await readFile(path.join(packaged, 'package.json'), 'utf8')) as { name: string; version: string };
    await cp(packaged, path.join(storagePath, 'components', name, version), { recursive: true });
  } finally {
    await work.remove();
  }
}
