import { Catalog } from '../../src/catalog/catalog';
import { ChangeJournal } from '../../src/catalog/change-journal';
import { fillJournal, versionsToGenerate, writeGeneratedIndex, type PackagedTemplate } from '../catalog-fill';
import { measurePoll, measureRegistry, target, VERSIONS_EACH, type PollFigures, type RegistryFigures, type Target } from '../catalog-registry';
import type { BenchS3Server } from '../s3-bench-server';

/**
 * The journal row: a catalog of 10,000 versions whose journal holds `TESSERA_BENCH_JOURNAL_ENTRIES`
 * (200,000; 0 leaves the row out) lifecycle entries, spread over the half hour before the registry
 * starts and ending two minutes before it, then one more a minute before it, where the index was
 * written: the history a tenant's deprecate/undo churn left behind the newest index, not pruned
 * yet (fewer than `indexEvery` changes came since). On the file system by default, where a poll used to
 * list the whole journal folder; `TESSERA_BENCH_JOURNAL_KINDS=file system,S3` adds fauxqs, which
 * sorts its whole bucket at every listing (its own cost, not a real store's).
 */
export const JOURNAL_ENTRIES = Number(process.env.TESSERA_BENCH_JOURNAL_ENTRIES ?? 200_000);
export const JOURNAL_VERSIONS = 10_000;
export const JOURNAL_SPAN_MS = 30 * 60_000;
export const JOURNAL_QUIET_MS = 2 * 60_000;
export const JOURNAL_KINDS = (process.env.TESSERA_BENCH_JOURNAL_KINDS ?? 'file system').split(',').map((kind) => kind.trim());
/** Goals with the journal's history: idle CPU and one poll, whatever its length. */
const JOURNAL_GOALS = { idleCore: 0.02, pollMs: 20 };

export interface JournalRow {
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

/** A catalog of JOURNAL_VERSIONS versions with a journal of JOURNAL_ENTRIES lifecycle entries behind its index: the registry idle, one poll, then compaction. */
export async function measureJournal(kind: Target['kind'], s3: BenchS3Server, template: PackagedTemplate): Promise<JournalRow> {
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

export function formatJournalTable(rows: JournalRow[]): string {
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
