import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Catalog } from '../../src/catalog/catalog';
import { ChangeJournal } from '../../src/catalog/change-journal';
import { packageComponent } from '../../src/packager/package-component';
import { FileSystemStorage } from '../../src/storage/fs-storage';
import { createS3Client, S3Storage } from '../../src/storage/s3-storage';
import type { StorageAdapter } from '../../src/storage/storage-adapter';
import { demoComponent, REPO_ROOT, temporaryFolder } from '../bench-storage';
import { fillFileSystem, fillJournal, fillS3, versionsToGenerate, writeGeneratedIndex, type PackagedTemplate } from '../catalog-fill';
import { megabytes } from '../format-report';
import { median } from '../load';
import { processTreeCpu, processTreeMemory } from '../process-tree';
import { startS3BenchServer, S3_BUCKET, type BenchS3Server } from '../s3-bench-server';
import type { Scenario } from '../scenario';
import { NODE_FLAGS } from '../../src/node-flags';

const CLI = path.join(REPO_ROOT, 'bin', 'tessera.js');
const VERSIONS_EACH = 5;
/** Catalog sizes measured, in versions (components × 5 versions each); `TESSERA_BENCH_CATALOG_SIZES=1000,10000` measures fewer. */
const SIZES = (process.env.TESSERA_BENCH_CATALOG_SIZES ?? '1000,10000,50000').split(',').map((size) => Math.round(Number(size) / VERSIONS_EACH) * VERSIONS_EACH);
/** Storage kinds measured; `TESSERA_BENCH_CATALOG_KINDS=file system` measures one. */
const KINDS = (process.env.TESSERA_BENCH_CATALOG_KINDS ?? 'file system,S3').split(',').map((kind) => kind.trim()) as Array<Target['kind']>;
/** The largest catalog listed and read whole at a first start (no index) on S3: 50,000 takes several minutes of fauxqs. */
const S3_FULL_LISTING_UP_TO = 10_000;
const SETTLE_MS = 3000;
const IDLE_MS = 15_000;
const FIRST_RENDERS = 3;
/** Polls timed of each kind (idle, finding one version): their median is reported. */
const POLLS = 5;
const START_LIMIT_MS = 600_000;
/**
 * The journal row: a catalog of 10,000 versions whose journal holds `TESSERA_BENCH_JOURNAL_ENTRIES`
 * (200,000; 0 leaves the row out) lifecycle entries, spread over the half hour before the registry
 * starts and ending two minutes before it, then one more a minute before it, where the index was
 * written: the history a tenant's deprecate/undo churn left behind the newest index, not pruned
 * yet (fewer than `indexEvery` changes came since). On the file system by default, where a poll used to
 * list the whole journal folder; `TESSERA_BENCH_JOURNAL_KINDS=file system,S3` adds fauxqs, which
 * sorts its whole bucket at every listing (its own cost, not a real store's).
 */
const JOURNAL_ENTRIES = Number(process.env.TESSERA_BENCH_JOURNAL_ENTRIES ?? 200_000);
const JOURNAL_VERSIONS = 10_000;
const JOURNAL_SPAN_MS = 30 * 60_000;
const JOURNAL_QUIET_MS = 2 * 60_000;
const JOURNAL_KINDS = (process.env.TESSERA_BENCH_JOURNAL_KINDS ?? 'file system').split(',').map((kind) => kind.trim());
/** Goals with the journal's history: idle CPU and one poll, whatever its length. */
const JOURNAL_GOALS = { idleCore: 0.02, pollMs: 20 };
/** Goals at 10,000 versions; at 50,000, within twice these. */
const GOALS = { readyMs: 3000, idleCore: 0.02, firstRenderMs: 100, catalogBytesPerVersion: 4096 };

interface Target {
  kind: 'file system' | 'S3';
  /** The `storage` setting of a registry on it. */
  setting: string;
  env: Record<string, string>;
  open(): StorageAdapter;
  /** Writes the versions in the registry's layout; answers their summaries, for an index written directly. */
  fill(template: PackagedTemplate, size: number): Promise<Parameters<typeof writeGeneratedIndex>[1]>;
  remove(): Promise<void>;
}

interface RegistryFigures {
  readyMs: number;
  idleCore: number;
  frontRss: number;
  firstRendersMs: number[];
  lists: Array<{ what: string; ms: number; bytes: number }>;
}

interface PollFigures {
  loadMs: number;
  /** The index read at the load, gzipped. */
  indexBytes: number;
  heapPerVersion: number;
  idle: { ms: number; calls: string };
  oneChange: { ms: number; calls: string };
}

interface Row {
  kind: string;
  size: number;
  fillMs: number;
  fullListingReadyMs?: number;
  registry: RegistryFigures;
  poll: PollFigures;
}

interface JournalRow {
  kind: string;
  entries: number;
  /** Writing the entries through the registry's journal. */
  fillMs: number;
  registry: RegistryFigures;
  poll: PollFigures;
  compaction: CompactionFigures;
}

interface CompactionFigures {
  /** From the maintaining catalog's start to its refresh that wrote the index and pruned the journal behind it, its load included. */
  ms: number;
  before: number;
  after: number;
}

/**
 * A catalog of 1,000, 10,000 and 50,000 versions on the file system and on an S3-protocol server on
 * loopback (fauxqs, as the tests use), generated straight into storage in the registry's layout:
 * start to ready, idle CPU, memory, one poll, first render, the list.
 */
export const catalogScaleScenario: Scenario = {
  name: 'catalog-scale',
  usesSharedRegistry: false,
  async run() {
    const packaged = await packageComponent(demoComponent('hello-world'));
    const template: PackagedTemplate = { descriptor: packaged.descriptor, files: packaged.files };
    const s3 = await startS3BenchServer();
    const rows: Row[] = [];
    const journalRows: JournalRow[] = [];
    const empties = new Map<string, RegistryFigures>();
    try {
      for (const kind of KINDS) {
        const emptyTarget = await target(kind, s3, 'empty');
        empties.set(kind, await measureRegistry(emptyTarget, 0));
        await emptyTarget.remove();
        for (const size of SIZES) {
          console.log(`  catalog-scale: ${size} versions on ${kind}…`);
          const storage = await target(kind, s3, `v${size}`);
          try {
            const filled = performance.now();
            const summaries = await storage.fill(template, size);
            const fillMs = performance.now() - filled;
            let fullListingReadyMs: number | undefined;
            // The first registry on storage written without an index lists and reads it whole, then writes the index.
            if (kind === 'file system' || size <= S3_FULL_LISTING_UP_TO) {
              const first = await startRegistry(storage);
              fullListingReadyMs = first.readyMs;
              await first.stop();
            } else {
              await writeGeneratedIndex(storage.open(), summaries);
            }
            const registry = await measureRegistry(storage, size);
            const poll = await measurePoll(storage, template, size);
            rows.push({ kind, size, fillMs, fullListingReadyMs, registry, poll });
            console.log(`    ready ${registry.readyMs.toFixed(0)} ms, idle ${(registry.idleCore * 100).toFixed(2)} % of a core, idle poll ${poll.idle.ms.toFixed(1)} ms`);
          } finally {
            await storage.remove();
          }
        }
        if (JOURNAL_ENTRIES > 0 && JOURNAL_KINDS.includes(kind)) journalRows.push(await measureJournal(kind, s3, template));
      }
    } finally {
      await s3.stop();
    }
    return {
      rows: [],
      table: [formatTable(rows, empties), formatJournalTable(journalRows)].join('\n\n'),
      notes: [
        `catalog-scale: the demo hello-world, packaged once, written straight into storage in the registry's layout as \`catalog-<n>\` × ${VERSIONS_EACH} versions (a description and a publisher each), for ${SIZES.map((size) => size.toLocaleString('en-US')).join(', ')} versions, on the file system (hard links for every file but package.json) and on fauxqs (the tests' S3-protocol server, a process on loopback: each file, then each commit marker). The first \`tessera start\` on it finds no index: it lists and reads every version, then writes the index (on S3 up to ${S3_FULL_LISTING_UP_TO.toLocaleString('en-US')} versions; past that the benchmark writes the index itself, with the registry's code). Then \`tessera start --storage <it>\` with the default configuration (2 front threads and 2 sandbox hosts on 2 CPUs, a poll every 5 s): ready = from spawning it to the first 200 of \`/readyz\`; ${SETTLE_MS / 1000} s later, CPU of the registry process and its hosts over ${IDLE_MS / 1000} s idle (\`/proc\`), and the registry process's \`VmRSS\`; the first render of ${FIRST_RENDERS} components no one had asked for (each a new isolate); \`GET /\`, \`GET /?meta=true\` and the web UI's list, first request each. Apart, in the benchmark's process, one catalog over the storage (its calls counted): its load, its heap after a GC over the version count, an idle poll, a poll after another catalog published one version (median of ${POLLS} each).`,
        `catalog-scale, journal: ${JOURNAL_VERSIONS.toLocaleString('en-US')} versions written as above with their index, then ${JOURNAL_ENTRIES.toLocaleString('en-US')} lifecycle entries written through the registry's journal (${JOURNAL_KINDS.join(', ')}), evenly over ${JOURNAL_SPAN_MS / 60_000} minutes ending ${JOURNAL_QUIET_MS / 60_000} minutes before the registry starts, cycling over the versions, then one more ${JOURNAL_QUIET_MS / 2 / 60_000} minute before it, where the index is rewritten: a tenant's deprecate/undo churn left behind the index, not pruned yet (fewer than 1,000 changes since). The same registry and catalog measures as above; then compaction: a maintaining catalog (the registry's main thread's) starts, one version is published, and its next refresh writes the index and prunes the journal behind it (entries before it started and after; the time of all of it, its load included).`,
      ],
    };
  },
};

/** A catalog of JOURNAL_VERSIONS versions with a journal of JOURNAL_ENTRIES lifecycle entries behind its index: the registry idle, one poll, then compaction. */
async function measureJournal(kind: Target['kind'], s3: BenchS3Server, template: PackagedTemplate): Promise<JournalRow> {
  console.log(`  catalog-scale: ${JOURNAL_VERSIONS} versions and ${JOURNAL_ENTRIES} journal entries on ${kind}…`);
  const storage = await target(kind, s3, 'journal');
  try {
    const versions = versionsToGenerate(JOURNAL_VERSIONS / VERSIONS_EACH, VERSIONS_EACH);
    const summaries = await storage.fill(template, JOURNAL_VERSIONS);
    const filled = performance.now();
    await fillJournal(storage.open(), versions, JOURNAL_ENTRIES, JOURNAL_SPAN_MS, Date.now() - JOURNAL_QUIET_MS);
    const fillMs = performance.now() - filled;
    const latest = await new ChangeJournal(storage.open()).announce(versions[0]!.name, versions[0]!.version, Date.now() - JOURNAL_QUIET_MS / 2, 'lifecycle');
    await writeGeneratedIndex(storage.open(), summaries, latest.time);
    const registry = await measureRegistry(storage, JOURNAL_VERSIONS);
    const poll = await measurePoll(storage, template, JOURNAL_VERSIONS);
    const compaction = await measureCompaction(storage, template);
    console.log(`    idle ${(registry.idleCore * 100).toFixed(2)} % of a core, idle poll ${poll.idle.ms.toFixed(1)} ms, compaction ${compaction.before} → ${compaction.after} entries in ${compaction.ms.toFixed(0)} ms`);
    return { kind, entries: JOURNAL_ENTRIES, fillMs, registry, poll, compaction };
  } finally {
    await storage.remove();
  }
}

/**
 * Compaction by a maintaining catalog (the registry's main thread's), an index every change: it
 * starts (its first refresh loads, and indexes what the journal holds past the index), one version is
 * published, and its next refresh writes the index and prunes the journal behind it. Entries are
 * counted before it starts and after; the time is the whole of it, the load included.
 */
async function measureCompaction(storage: Target, template: PackagedTemplate): Promise<CompactionFigures> {
  const before = (await storage.open().listRecords('changes/')).length;
  const started = performance.now();
  const maintainer = new Catalog(storage.open(), { maintainsIndex: true, indexEvery: 1 });
  await maintainer.refresh();
  const files = new Map(template.files);
  files.set('package.json', Buffer.from(JSON.stringify({ ...template.descriptor, name: 'catalog-compacted', version: '1.0.0' })));
  await new Catalog(storage.open()).publish('catalog-compacted', '1.0.0', files);
  await maintainer.refresh();
  const ms = performance.now() - started;
  return { ms, before, after: (await storage.open().listRecords('changes/')).length };
}

async function target(kind: Target['kind'], s3: BenchS3Server, name: string): Promise<Target> {
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
async function startRegistry(storage: Target): Promise<StartedRegistry> {
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

async function measureRegistry(storage: Target, size: number): Promise<RegistryFigures> {
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
async function measurePoll(storage: Target, template: PackagedTemplate, size: number): Promise<PollFigures> {
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

function formatTable(rows: Row[], empties: Map<string, RegistryFigures>): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const goal = (size: number) => (size <= 10_000 ? 1 : size <= 50_000 ? 2 : Infinity);
  const verdict = (value: number, limit: number, size: number) => (size < 10_000 ? '' : value <= limit * goal(size) ? ' (met)' : ' (missed)');
  return [
    '| storage | versions | written in | first start, no index: ready | ready | idle CPU, registry + hosts | registry RSS (over an empty one, per version) | catalog: load (index size), heap per version | idle poll | poll finding 1 version | first render, median / worst of 3 | `GET /` | `GET /?meta=true` | web UI list |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|---:|',
    ...[...empties].map(([kind, empty]) => `| ${kind} | 0 | | | ${seconds(empty.readyMs)} | ${(empty.idleCore * 100).toFixed(2)} % | ${megabytes(empty.frontRss)} MB | | | | | | | |`),
    ...rows.map((row) => {
      const { registry: r, poll: p } = row;
      const empty = empties.get(row.kind)!;
      const list = (what: string) => {
        const found = r.lists.find((l) => l.what === what)!;
        return `${ms(found.ms)}, ${kb(found.bytes)}`;
      };
      return [
        '',
        row.kind,
        row.size.toLocaleString('en-US'),
        seconds(row.fillMs),
        row.fullListingReadyMs === undefined ? 'not measured' : seconds(row.fullListingReadyMs),
        `${seconds(r.readyMs)}${verdict(r.readyMs, GOALS.readyMs, row.size)}`,
        `${(r.idleCore * 100).toFixed(2)} %${verdict(r.idleCore, GOALS.idleCore, row.size)}`,
        `${megabytes(r.frontRss)} MB (+${megabytes(r.frontRss - empty.frontRss)} MB, ${kb((r.frontRss - empty.frontRss) / row.size)})`,
        `${ms(p.loadMs)} (${megabytes(p.indexBytes)} MB), ${kb(p.heapPerVersion)}${verdict(p.heapPerVersion, GOALS.catalogBytesPerVersion, row.size)}`,
        `${ms(p.idle.ms)}: ${p.idle.calls}`,
        `${ms(p.oneChange.ms)}: ${p.oneChange.calls}`,
        `${ms(median(r.firstRendersMs))} / ${ms(Math.max(...r.firstRendersMs))}${verdict(Math.max(...r.firstRendersMs), GOALS.firstRenderMs, row.size)}`,
        list('GET /'),
        list('GET /?meta=true'),
        list('web UI list'),
        '',
      ]
        .join(' | ')
        .trim();
    }),
    '',
    `Goals at 10,000 versions (at 50,000: twice these): ready ≤ ${GOALS.readyMs / 1000} s, idle ≤ ${GOALS.idleCore * 100} % of a core, first render ≤ ${GOALS.firstRenderMs} ms, ≤ ${GOALS.catalogBytesPerVersion / 1024} KB of catalog per version. The registry's RSS holds two catalogs (one per front thread).`,
  ].join('\n');
}

function formatJournalTable(rows: JournalRow[]): string {
  if (rows.length === 0) return '';
  const met = (value: number, limit: number) => (value <= limit ? ' (met)' : ' (missed)');
  return [
    '| storage | versions | journal entries (written in) | ready | idle CPU, registry + hosts | catalog: load | idle poll | poll finding 1 version | compaction: entries before → after, its time (load included) |',
    '|---|---:|---:|---:|---:|---:|---|---|---|',
    ...rows.map((row) => {
      const { registry: r, poll: p, compaction: c } = row;
      return `| ${row.kind} | ${JOURNAL_VERSIONS.toLocaleString('en-US')} | ${row.entries.toLocaleString('en-US')} (${(row.fillMs / 1000).toFixed(1)} s) | ${(r.readyMs / 1000).toFixed(2)} s | ${(r.idleCore * 100).toFixed(2)} %${met(r.idleCore, JOURNAL_GOALS.idleCore)} | ${p.loadMs.toFixed(0)} ms | ${p.idle.ms.toFixed(1)} ms${met(p.idle.ms, JOURNAL_GOALS.pollMs)}: ${p.idle.calls} | ${p.oneChange.ms.toFixed(1)} ms${met(p.oneChange.ms, JOURNAL_GOALS.pollMs)}: ${p.oneChange.calls} | ${c.before.toLocaleString('en-US')} → ${c.after.toLocaleString('en-US')}, ${(c.ms / 1000).toFixed(2)} s |`;
    }),
    '',
    `Goals with ${JOURNAL_ENTRIES.toLocaleString('en-US')} journal entries: idle ≤ ${JOURNAL_GOALS.idleCore * 100} % of a core, a poll ≤ ${JOURNAL_GOALS.pollMs} ms.`,
  ].join('\n');
}
