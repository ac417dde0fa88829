import os from 'node:os';
import { median } from './load';
import type { LoadResult } from './load-options';
import type { BenchSettings, MemoryReport, ScenarioReport, ThroughputRow } from './scenario';

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  system: string;
  node: string;
  /** ISO date and time (UTC) of the run. */
  date: string;
}

export function describeMachine(): Machine {
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    system: `${os.type()} ${os.release()}`,
    node: process.version,
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
  };
}

const integer = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(n < 10 ? 1 : 0);
/** Bytes as mebibytes with one decimal (the unit written after it). */
export const megabytes = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

/** CPU microseconds per answered request: the server process's own, and its sandbox hosts' apart when it has any. */
function cpuPerRequest(result: LoadResult): string {
  if (result.cpuSeconds === undefined || result.requests === 0) return '';
  const micros = (seconds: number) => Math.round((seconds * 1e6) / result.requests);
  const { own, descendants } = result.cpuSeconds;
  return descendants > 0 ? `${micros(own)} + ${micros(descendants)} hosts` : String(micros(own));
}

/** A goal's verdict, as the tables write it. */
export const verdict = (met: boolean) => (met ? 'met' : 'missed');

/** CPU µs per request, the server's own and its hosts' together; Infinity when not measured. */
const cpuMicros = (result: LoadResult): number =>
  result.cpuSeconds === undefined || result.requests === 0 ? Infinity : ((result.cpuSeconds.own + result.cpuSeconds.descendants) * 1e6) / result.requests;

/** The most resident memory of the server and its sandbox hosts together during its rounds. */
const peakRss = (result: LoadResult) => (result.peakRssBytes === undefined ? '' : `${megabytes(result.peakRssBytes)} MB`);

export function formatMethod(machine: Machine, settings: BenchSettings, notes: string[]): string {
  return [
    `- date: ${machine.date}`,
    `- machine: ${machine.cpus} CPUs (nproc), ${machine.cpuModel}, ${machine.memoryGiB} GiB RAM, ${machine.system}; Node ${machine.node}`,
    settings.loadGenerator === 'wrk'
      ? `- load: wrk, one thread, ${settings.connections} connections; everything on 127.0.0.1`
      : `- load: autocannon, ${settings.connections} connections, in its own child process; everything on 127.0.0.1`,
    `- rounds: each server of a comparison is warmed for ${settings.warmupSeconds} s (unmeasured), then measured ${settings.rounds} times for ${settings.durationSeconds} s, in turn with the other (registry, reference, registry, reference…)`,
    '- servers: each in its own child process: the registry with its default configuration over the embedded file-system storage, and the baseline, a plain fastify server answering a body of the same size as the registry\'s answer on the same route shape; only one server is under load at a time, and scenarios run one after another',
    '- req/s = requests answered over the measured time of all rounds; p50 is the median round\'s, p99 the worst round\'s; ratio = the median of the rounds\' ratios (req/s over the reference\'s req/s in the round right after); CPU µs per request = user and system CPU the server\'s process spent during its rounds (`/proc`), its sandbox hosts apart (`front + hosts`), over the requests it answered; peak RSS = the most resident memory (`VmRSS`) of the server\'s process and its sandbox hosts together, read every 100 ms during its rounds',
    ...notes.map((note) => `- ${note}`),
  ].join('\n');
}

function throughputLine(row: ThroughputRow): string {
  if (row.skipped !== undefined || row.result === undefined) return `| ${row.scenario} | skipped: ${row.skipped ?? 'no result'} | | | | | | | | | | | | | |`;
  const { result, reference } = row;
  const ratio = reference ? median(reference.roundRatios) : undefined;
  const p99Ratio = reference ? result.p99Ms / reference.result.p99Ms : undefined;
  const target = [
    row.target === undefined ? '' : `≥ ${row.target.toFixed(2)} ${ratio !== undefined && ratio >= row.target ? 'met' : 'missed'}`,
    row.p99Target === undefined ? '' : `p99 ≤ ${row.p99Target}× ${p99Ratio !== undefined && p99Ratio <= row.p99Target ? 'met' : 'missed'} (${p99Ratio?.toFixed(1)}×)`,
    row.cpuTarget === undefined ? '' : `CPU ≤ ${row.cpuTarget} µs ${verdict(cpuMicros(result) <= row.cpuTarget)} (${Math.round(cpuMicros(result))} µs)`,
    row.rssTarget === undefined || reference === undefined ? '' : `peak RSS ≤ its ${verdict((result.peakRssBytes ?? Infinity) <= (reference.result.peakRssBytes ?? 0))}`,
  ]
    .filter(Boolean)
    .join('; ');
  return [
    '',
    row.scenario,
    integer(result.requestsPerSecond),
    ms(result.p50Ms),
    ms(result.p99Ms),
    integer(result.failures),
    cpuPerRequest(result),
    peakRss(result),
    reference?.label ?? '',
    reference ? integer(reference.result.requestsPerSecond) : '',
    reference ? ms(reference.result.p99Ms) : '',
    reference ? cpuPerRequest(reference.result) : '',
    reference ? peakRss(reference.result) : '',
    ratio === undefined ? '' : ratio.toFixed(3),
    reference ? reference.roundRatios.map((r) => r.toFixed(3)).join(', ') : '',
    target,
    '',
  ]
    .join(' | ')
    .trim();
}

function formatThroughput(rows: ThroughputRow[]): string {
  return [
    '| scenario | req/s | p50 ms | p99 ms | failed requests | CPU µs per request | peak RSS | compared with | its req/s | its p99 ms | its CPU µs per request | its peak RSS | ratio | ratio per round | target |',
    '|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|---|',
    ...rows.map(throughputLine),
  ].join('\n');
}

function formatMemory(memory: MemoryReport[]): string {
  return [
    '| warm versions | sandbox hosts | RSS before | RSS after 1st pass | RSS after 2nd pass | per version |',
    '|---:|---:|---:|---:|---:|---:|',
    ...memory.map((run) => {
      const perVersion = (run.rssAfterBytes - run.rssBeforeBytes) / run.versions;
      return `| ${run.versions} | ${run.hosts} | ${megabytes(run.rssBeforeBytes)} MB | ${megabytes(run.rssAfterFirstPassBytes)} MB | ${megabytes(run.rssAfterBytes)} MB | ${megabytes(perVersion)} MB |`;
    }),
  ].join('\n');
}

/** The whole result as markdown: a dated heading, the method, the tables. */
export function formatReport(machine: Machine, settings: BenchSettings, reports: ScenarioReport[], remark?: string): string {
  const rows = reports.flatMap((report) => report.rows);
  const memory = reports.find((report) => report.memory)?.memory;
  return [
    `### ${machine.date}: ${machine.cpus} CPUs, Node ${machine.node}`,
    '',
    ...(remark ? [remark, ''] : []),
    formatMethod(machine, settings, reports.flatMap((report) => report.notes)),
    ...(rows.length > 0 ? ['', formatThroughput(rows)] : []),
    ...(memory ? ['', formatMemory(memory)] : []),
    ...reports.flatMap((report) => (report.table ? ['', report.table] : [])),
    '',
  ].join('\n');
}
