import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TesseraError } from '../errors/errors';
import type { StorageAdapter } from './storage-adapter';

/**
 * The embedded default storage: `<root>/components/<name>/<version>/…`. A version is written into a
 * staging folder and renamed into place, which is atomic on one file system and fails when the
 * target exists, so two concurrent publishes of one version cannot both win.
 */
export class FileSystemStorage implements StorageAdapter {
  readonly #components: string;
  readonly #staging: string;

  constructor(root: string) {
    this.#components = path.join(root, 'components');
    this.#staging = path.join(root, '.staging');
  }

  async listComponents(): Promise<string[]> {
    return (await listDirectories(this.#components)).sort();
  }

  async listVersions(name: string): Promise<string[]> {
    return listDirectories(path.join(this.#components, name));
  }

  async readFile(name: string, version: string, filePath: string): Promise<Buffer | undefined> {
    const versionDir = path.join(this.#components, name, version);
    const target = path.resolve(versionDir, filePath);
    if (!target.startsWith(versionDir + path.sep)) return undefined;
    try {
      return await readFile(target);
    } catch (error) {
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') return undefined;
      throw error;
    }
  }

  async writeVersion(name: string, version: string, files: ReadonlyMap<string, Buffer>): Promise<void> {
    const staged = path.join(this.#staging, `${name}@${version}-${randomUUID()}`);
    const target = path.join(this.#components, name, version);
    try {
      for (const [filePath, content] of files) {
        const destination = path.resolve(staged, filePath);
        if (!destination.startsWith(staged + path.sep)) throw new TesseraError('PACKAGE_NOT_VALID', `File "${filePath}" escapes the package.`);
        await mkdir(path.dirname(destination), { recursive: true });
        await writeFile(destination, content);
      }
      await mkdir(path.dirname(target), { recursive: true });
      await rename(staged, target);
    } catch (error) {
      await rm(staged, { recursive: true, force: true });
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' || code === 'EEXIST') throw new TesseraError('ALREADY_EXISTS', `${name}@${version} is already published; versions are immutable.`);
      throw error;
    }
  }
}

async function listDirectories(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';
