import { packageComponent } from '../../src/packager/package-component';
import { demoComponent } from '../bench-storage';
import { writeGeneratedIndex, type PackagedTemplate } from '../catalog-fill';
import { FIRST_RENDERS, IDLE_MS, measurePoll, measureRegistry, POLLS, SETTLE_MS, startRegistry, target, VERSIONS_EACH, type PollFigures, type RegistryFigures, type Target } from '../catalog-registry';
import { megabytes } from '../format-report';
import { median } from '../load';
import { startS3BenchServer } from '../s3-bench-server';
import type { Scenario } from '../scenario';
import { formatJournalTable, JOURNAL_ENTRIES, JOURNAL_KINDS, JOURNAL_QUIET_MS, JOURNAL_SPAN_MS, JOURNAL_VERSIONS, measureJournal, type JournalRow } from './catalog-scale-journal';

/** Catalog sizes measured, in versions (components × 5 versions each); `TESSERA_BENCH_CATALOG_SIZES=1000,10000` measures fewer. */
const SIZES = (process.env.TESSERA_BENCH_CATALOG_SIZES ?? '1000,10000,50000').split(',').map((size) => Math.round(Number(size) / VERSIONS_EACH) * VERSIONS_EACH);
/** Storage kinds measured; `TESSERA_BENCH_CATALOG_KINDS=file system` measures one. */
const KINDS = (process.env.TESSERA_BENCH_CATALOG_KINDS ?? 'file system,S3').split(',').map((kind) => kind.trim()) as Array<Target['kind']>;
/** The largest catalog listed and read whole at a first start (no index) on S3: 50,000 takes several minutes of fauxqs. */
const S3_FULL_LISTING_UP_TO = 10_000;
/** Goals at 10,000 versions; at 50,000, within twice these. */
const GOALS = { readyMs: 3000, idleCore: 0.02, firstRenderMs: 100, catalogBytesPerVersion: 4096 };

interface Row {
  kind: string;
  size: number;
  fillMs: number;
  fullListingReadyMs?: number;
  registry: RegistryFigures;
  poll: PollFigures;
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
