import { randomUUID } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { link, mkdir, readdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TesseraError } from '../errors/errors';
import { isRunning } from '../process-running';
import type { StorageAdapter } from './storage-adapter';
import type { StorageSettings } from './storage-settings';

/** A staging folder untouched this long belongs to a writer that is gone, whichever host it ran on. */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
/** A record's folder removed under a writer (emptied by another) is made again this many times. */
const PLACE_ATTEMPTS = 3;
/** Records deleted at once: pruning an old journal deletes many small files. */
const PARALLEL_DELETES = 16;

/**
 * The embedded default storage: `<root>/components/<name>/<version>/…`, and the catalog's records
 * in `<root>/catalog/<key>` (a key's folders are folders). A version (or a record) is written into a
 * staging folder and renamed into place, which is atomic on one file system and fails when the
 * target exists, so two concurrent publishes of one version cannot both win. Each process stages
 * under `.staging/<host>.<pid>/`, so that leftovers of one that was stopped mid-publish can be told
 * from the work of a live one sharing the folder.
 */
export class FileSystemStorage implements StorageAdapter {
  readonly settings: StorageSettings;
  readonly #components: string;
  readonly #records: string;
  readonly #stagingRoot: string;
  readonly #staging: string;

  constructor(root: string) {
    this.settings = { location: root };
    this.#components = path.join(root, 'components');
    this.#records = path.join(root, 'catalog');
    this.#stagingRoot = path.join(root, '.staging');
    this.#staging = path.join(this.#stagingRoot, writerName(os.hostname(), process.pid));
  }

  /**
   * Removes the staging folders of writers that are gone: this host's processes that no longer run
   * (this very process included: nothing of it is staged yet at start), and any writer's folder
   * untouched for a day. Answers how many were removed.
   */
  async removeInterruptedWrites(): Promise<number> {
    let removed = 0;
    for (const entry of await listDirectories(this.#stagingRoot)) {
      const folder = path.join(this.#stagingRoot, entry);
      const writer = /^(.+)\.(\d+)$/.exec(entry);
      const gone = writer !== null && writer[1] === os.hostname() && (Number(writer[2]) === process.pid || !isRunning(Number(writer[2])));
      if (gone || Date.now() - (await stat(folder)).mtimeMs > ABANDONED_AFTER_MS) {
        await rm(folder, { recursive: true, force: true });
        removed += 1;
      }
    }
    return removed;
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

  async hasFile(name: string, version: string, filePath: string): Promise<boolean> {
    const versionDir = path.join(this.#components, name, version);
    const target = path.resolve(versionDir, filePath);
    if (!target.startsWith(versionDir + path.sep)) return false;
    try {
      return (await stat(target)).isFile();
    } catch (error) {
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
      throw error;
    }
  }

  async putRecord(key: string, content: Buffer): Promise<void> {
    await this.#placeRecord(key, content, rename);
  }

  /** Hard-linked into place: link(2) fails when the target exists, so only one writer creates it. */
  async createRecord(key: string, content: Buffer): Promise<boolean> {
    try {
      await this.#placeRecord(key, content, link);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }

  /**
   * Writes a record whole in the staging folder, then `place`s it (rename: replace; link: create only).
   * Its folder is made again when another writer removed it, emptied, in between (see deleteRecords).
   */
  async #placeRecord(key: string, content: Buffer, place: (from: string, to: string) => Promise<void>): Promise<void> {
    const target = this.#recordPath(key);
    const staged = path.join(this.#staging, `record-${randomUUID()}`);
    await mkdir(this.#staging, { recursive: true });
    try {
      await writeFile(staged, content);
      for (let attempt = 1; ; attempt++) {
        await mkdir(path.dirname(target), { recursive: true });
        try {
          await place(staged, target);
          break;
        } catch (error) {
          if (!isMissing(error) || attempt === PLACE_ATTEMPTS) throw error;
        }
      }
    } finally {
      // Renamed away, or left behind by a link or a failure.
      await rm(staged, { force: true });
    }
  }

  async readRecord(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.#recordPath(key));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /**
   * Keys under `folder`, its sub-folders' included, in key order (as an S3 listing gives them). A
   * sub-folder whose keys all sort up to `startAfter` is skipped unread, so records grouped in folders
   * by time (`changes/<minute>/…`, `audit/<day>/…`) are listed from a point on at the cost of what
   * follows it; the walk stops at `limit` keys.
   */
  async listRecords(folder: string, startAfter?: string, limit = Infinity): Promise<string[]> {
    const keys: string[] = [];
    await this.#listUnder(folder, startAfter, limit, keys);
    return keys;
  }

  async #listUnder(prefix: string, startAfter: string | undefined, limit: number, keys: string[]): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(this.#recordPath(prefix), { withFileTypes: true });
    } catch (error) {
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw error;
    }
    // A folder's keys go on with `/`: sorted as such, they fall where an S3 listing puts them.
    const names = entries.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name)).sort();
    for (const name of names) {
      if (keys.length >= limit) return;
      const key = `${prefix}${name}`;
      if (!name.endsWith('/')) {
        if (startAfter === undefined || key > startAfter) keys.push(key);
      } else if (startAfter === undefined || key > startAfter || startAfter.startsWith(key)) {
        await this.#listUnder(key, startAfter, limit, keys);
      }
    }
  }

  /** Deletes the records, a few at a time, then the folders they leave empty (a writer racing that makes its folder again). */
  async deleteRecords(keys: readonly string[]): Promise<void> {
    let next = 0;
    const deleter = async (): Promise<void> => {
      while (next < keys.length) {
        try {
          await unlink(this.#recordPath(keys[next++]!));
        } catch (error) {
          if (!isMissing(error)) throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_DELETES, keys.length) }, deleter));
    const folders = new Set(keys.map((key) => path.dirname(this.#recordPath(key))));
    for (const folder of folders) {
      if (folder === this.#records) continue;
      // Still holding records (ENOTEMPTY, EEXIST on some systems), or already gone: left as it is.
      await rmdir(folder).catch(() => {});
    }
  }

  /** A record's file; keys are the catalog's own (`changes/…`), never a request's, but none may leave the folder. */
  #recordPath(key: string): string {
    const target = path.resolve(this.#records, key);
    if (target !== this.#records && !target.startsWith(this.#records + path.sep)) throw new Error(`The record key "${key}" leaves the catalog folder.`);
    return target;
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

const writerName = (host: string, pid: number): string => `${host}.${pid}`;

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';
