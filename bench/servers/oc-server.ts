/**
 * Child-process entry: an OC registry (the `oc` package of bench/oc/install-oc.ts) in production
 * mode over a storage folder filled by bench/oc/package-oc-component.ts.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../../test/helpers/free-port';
import { serveUntilStopped } from '../server-process';

export interface OcServerOptions {
  /** The installed `oc` package folder. */
  ocPackage: string;
  /** Holds `components/<name>/<version>/`. */
  storagePath: string;
}

/** A failure the way OC's storage adapters report one: the registry reads these codes. */
interface StorageError {
  code: 'file_not_found' | 'dir_not_found';
  msg: string;
}

/** The part of OC's storage adapter contract its registry calls when it serves (and on start). */
interface StorageAdapter {
  adapterType: string;
  maxConcurrentRequests: number;
  getFile(file: string): Promise<string>;
  getJson(file: string): Promise<unknown>;
  listSubDirectories(dir: string): Promise<string[]>;
  putFileContent(content: string, file: string): Promise<void>;
  putDir(): Promise<void>;
}

/** The part of the `oc` package used here (it is not a dependency of the project, so its types are not at hand). */
interface Oc {
  Registry(options: {
    baseUrl: string;
    port: number;
    pollingInterval: number;
    publishAuth: false;
    storage: { adapter: () => StorageAdapter; options: { componentsDir: string; path: string } };
    env: { name: string };
    verbosity: number;
    discovery: boolean;
  }): {
    start(callback: (error: unknown) => void): void;
    close(callback: () => void): void;
  };
}

/** A storage adapter over a local folder. */
function folderStorage(root: string): StorageAdapter {
  const within = (file: string) => path.join(root, file);
  const notFound = (code: StorageError['code']) => (error: unknown): never => {
    throw { code, msg: String(error) } satisfies StorageError;
  };
  return {
    adapterType: 'fs',
    maxConcurrentRequests: 20,
    getFile: (file) => readFile(within(file), 'utf8').catch(notFound('file_not_found')),
    getJson: (file) =>
      readFile(within(file), 'utf8')
        .then((text): unknown => JSON.parse(text))
        .catch(notFound('file_not_found')),
    listSubDirectories: (dir) =>
      readdir(within(dir), { withFileTypes: true })
        .then((entries) => entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name))
        .catch(notFound('dir_not_found')),
    // The registry saves its lists of components here when it starts (and when it publishes).
    putFileContent: async (content, file) => {
      await mkdir(path.dirname(within(file)), { recursive: true });
      await writeFile(within(file), content);
    },
    // On start the registry publishes its own oc-client component, which nothing here requests.
    putDir: async () => {},
  };
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2]!) as OcServerOptions;
  const oc = require(options.ocPackage) as Oc;
  // OC takes its port up front, to build its base URL.
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}/`;
  const storage = folderStorage(options.storagePath);
  const registry = oc.Registry({
    baseUrl,
    port,
    pollingInterval: 5,
    publishAuth: false,
    // `path` is where OC tells clients the components' static files are; nothing here fetches them.
    storage: { adapter: () => storage, options: { componentsDir: 'components', path: `${baseUrl}static/` } },
    env: { name: 'production' },
    verbosity: 0,
    discovery: false,
  });
  await new Promise<void>((resolve, reject) => registry.start((error) => (error ? reject(error) : resolve())));
  serveUntilStopped({ type: 'ready', url: baseUrl }, () => new Promise((resolve) => registry.close(() => resolve())));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
