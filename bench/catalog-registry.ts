import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Catalog } from '../src/catalog/catalog';
import { NODE_FLAGS } from '../src/node-flags';
import { FileSystemStorage } from '../src/storage/fs-storage';
import { createS3Client, S3Storage } from '../src/storage/s3-storage';
import type { StorageAdapter } from '../src/storage/storage-adapter';
import { REPO_ROOT, temporaryFolder } from './bench-storage';
import { fillFileSystem, fillS3, versionsToGenerate, type writeGeneratedIndex, type PackagedTemplate } from './catalog-fill';
import { median } from './load';
import { processTreeCpu, processTreeMemory } from './process-tree';
import { S3_BUCKET, type BenchS3Server } from './s3-bench-server';

const CLI = path.join(REPO_ROOT, 'bin', 'tessera.js');
/** Versions of each generated component: `catalog-<n>` at 1.0.0 … 1.0.4. */
export const VERSIONS_EACH = 5;
/** A started registry settles SETTLE_MS, then its CPU is measured over IDLE_MS. */
export const SETTLE_MS = 3000;
export const IDLE_MS = 15_000;
export const FIRST_RENDERS = 3;
/** Polls timed of each kind (idle, finding one version): their median is reported. */
export const POLLS = 5;
const START_LIMIT_MS = 600_000;

export interface Target {
  kind: 'file system' | 'S3';
  /** The `storage` setting of a registry on it. */
  setting: string;
  env: Record<string, string>;
  open(): StorageAdapter;
  /** Writes the versions in the registry's layout; answers their summaries, for an index written directly. */
  fill(template: PackagedTemplate, size: number): Promise<Parameters<typeof writeGeneratedIndex>[1]>;
  remove(): Promise<void>;
}

export interface RegistryFigures {
  readyMs: number;
  idleCore: number;
  frontRss: number;
  firstRendersMs: number[];
  lists: Array<{ what: string; ms: number; bytes: number }>;
}

export interface PollFigures {
  loadMs: number;
  /** The index read at the load, gzipped. */
  indexBytes: number;
  heapPerVersion: number;
  idle: { ms: number; calls: string };
  oneChange: { ms: number; calls: string };
}

/** Storage of that kind for one catalog: a temporary folder on the file system, the prefix `<name>/` of the bench bucket on S3. */
export async function target(kind: Target['kind'], s3: BenchS3Server, name: string): Promise<Target> {
  const folder = await temporaryFolder(`catalog-${name}`);
  if (kind === 'file system') {
    const root = path.join(folder.path, 'storage');
    const originals = path.join(folder.path, 'originals');
    await mkdir(root, { recursive: true });
    return {
      kind,
      setting: root,
      env: {},
      open: () => new FileSystemStorage(root),
      fill: (template, size) => fillFileSystem(root, originals, template, versionsToGenerate(size / VERSIONS_EACH, VERSIONS_EACH)),
      remove: () => folder.remove(),
    };
  }
  const prefix = `${name}/`;
  const clients: Array<{ destroy(): void }> = [];
  const client = () => {
    const created = createS3Client(30_000, s3.env);
    clients.push(created);
    return created;
  };
  return {
    kind,
    setting: `s3://${S3_BUCKET}/${name}`,
    env: s3.env,
    open: () => new S3Storage({ bucket: S3_BUCKET, prefix }, { timeoutMs: 30_000, client: client() }),
    fill: (template, size) => fillS3(client(), S3_BUCKET, prefix, template, versionsToGenerate(size / VERSIONS_EACH, VERSIONS_EACH)),
    remove: async () => {
      for (const created of clients) created.destroy();
      await folder.remove();
    },
  };
}

interface StartedRegistry {
  url: string;
  pid: number;
  readyMs: number;
  stop(): Promise<void>;
}

/** `tessera start` on the storage; answers once `/readyz` answers 200. */
export async function startRegistry(storage: Target): Promise<StartedRegistry> {
  const started = performance.now();
  const child = spawn(process.execPath, [...NODE_FLAGS, CLI, 'start', '--port', '0', '--storage', storage.setting], {
    env: { ...process.env, ...storage.env, TESSERA_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = () => stopRegistry(child, exited);
  try {
    const url = await announcedUrl(child);
    while ((await fetch(`${url}readyz`)).status !== 200) {
      if (performance.now() - started > START_LIMIT_MS) throw new Error('/readyz did not answer 200.');
      await sleep(10);
    }
    return { url, pid: child.pid!, readyMs: performance.now() - started, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function announcedUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`tessera start exited with code ${code} before listening.`)));
    // Read to the end, so that a full pipe never stalls the registry.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const url = /Tessera registry on (http:\/\/\S+?),/.exec(line)?.[1];
      if (url !== undefined) resolve(url);
    });
  });
}

async function stopRegistry(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function timed(url: string, init?: RequestInit): Promise<{ ms: number; status: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(url, init);
  const body = await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status, bytes: body.byteLength };
}

/** `tessera start` on the storage: its time to ready, its idle CPU and RSS once settled, FIRST_RENDERS first renders, and the lists. */
export async function measureRegistry(storage: Target, size: number): Promise<RegistryFigures> {
  const registry = await startRegistry(storage);
  try {
    await sleep(SETTLE_MS);
    const before = await processTreeCpu(registry.pid);
    await sleep(IDLE_MS);
    const after = await processTreeCpu(registry.pid);
    const idleCore = (after.own + after.descendants - before.own - before.descendants) / (IDLE_MS / 1000);
    const [front] = await processTreeMemory(registry.pid);
    const firstRendersMs: number[] = [];
    const components = size / VERSIONS_EACH;
    for (let i = 0; i < (size === 0 ? 0 : FIRST_RENDERS); i++) {
      const name = `catalog-${Math.floor(((i + 0.5) * components) / FIRST_RENDERS)}`;
      const answer = await timed(`${registry.url}${name}/1.0.${i % VERSIONS_EACH}?name=Ada`);
      if (answer.status !== 200) throw new Error(`GET /${name} answered ${answer.status}.`);
      firstRendersMs.push(answer.ms);
    }
    const lists = [];
    for (const [what, suffix, init] of [
      ['GET /', '', undefined],
      ['GET /?meta=true', '?meta=true', undefined],
      ['web UI list', '', { headers: { accept: 'text/html' } }],
    ] as const) {
      const answer = await timed(`${registry.url}${suffix}`, init);
      lists.push({ what, ms: answer.ms, bytes: answer.bytes });
    }
    return { readyMs: registry.readyMs, idleCore, frontRss: front!.rssBytes, firstRendersMs, lists };
  } finally {
    await registry.stop();
  }
}

/** A storage adapter counting its calls. */
function counted(storage: StorageAdapter): { storage: StorageAdapter; take(): string } {
  let calls: Record<string, number> = {};
  const proxy = new Proxy(storage, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...args: unknown[]) => {
        calls[property] = (calls[property] ?? 0) + 1;
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    storage: proxy,
    take: () => {
      const text = Object.entries(calls).map(([method, count]) => `${count} ${method}`).join(', ');
      calls = {};
      return text;
    },
  };
}

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** One catalog in this process: its load, its heap per version, an idle poll, and a poll that finds one new version. */
export async function measurePoll(storage: Target, template: PackagedTemplate, size: number): Promise<PollFigures> {
  const calls = counted(storage.open());
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  const reader = new Catalog(calls.storage);
  let started = performance.now();
  await reader.refresh();
  const loadMs = performance.now() - started;
  collectGarbage();
  const heapPerVersion = (process.memoryUsage().heapUsed - heapBefore) / size;
  const indexKey = (await storage.open().listRecords('index/')).at(-1);
  const indexBytes = indexKey === undefined ? 0 : ((await storage.open().readRecord(indexKey))?.length ?? 0);
  // Each poll timed alone, a moment after the last: the median of a few, so that a pause of the collector is not taken for the poll.
  const poll = async () => {
    await sleep(200);
    calls.take();
    const polled = performance.now();
    await reader.refresh();
    return { ms: performance.now() - polled, calls: calls.take() };
  };
  const idles = [];
  for (let i = 0; i < POLLS; i++) idles.push(await poll());
  const publisher = new Catalog(storage.open());
  const changes = [];
  for (let i = 0; i < POLLS; i++) {
    const files = new Map(template.files);
    files.set('package.json', Buffer.from(JSON.stringify({ ...template.descriptor, name: 'catalog-new', version: `1.0.${i}` })));
    await publisher.publish('catalog-new', `1.0.${i}`, files);
    changes.push(await poll());
  }
  if (reader.size !== size + POLLS) throw new Error(`The catalog holds ${reader.size} versions after the publishes, not ${size + POLLS}.`);
  const middle = (polls: Array<{ ms: number; calls: string }>) => ({ ms: median(polls.map((p) => p.ms)), calls: polls.at(-1)!.calls });
  return { loadMs, indexBytes, heapPerVersion, idle: middle(idles), oneChange: middle(changes) };
}
