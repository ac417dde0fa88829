import os from 'node:os';
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
const megabytes = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

export function formatMethod(machine: Machine, settings: BenchSettings, notes: string[]): string {
  return [
    `- date: ${machine.date}`,
    `- machine: ${machine.cpus} CPUs (nproc), ${machine.cpuModel}, ${machine.memoryGiB} GiB RAM, ${machine.system}; Node ${machine.node}`,
    `- load: autocannon, ${settings.connections} connections, ${settings.durationSeconds} s measured after a ${settings.warmupSeconds} s unmeasured warm-up, in its own child process; everything on 127.0.0.1`,
    '- servers: each in its own child process, one at a time: the registry with its default configuration over the embedded file-system storage, and the baseline, a plain fastify server answering a body of the same size as the registry\'s answer on the same route shape; scenarios run one after another, never concurrently',
    '- req/s is autocannon\'s mean of per-second samples; p50 and p99 are latencies; ratio = req/s over the reference\'s req/s in the same run',
    ...notes.map((note) => `- ${note}`),
  ].join('\n');
}

function throughputLine(row: ThroughputRow): string {
  if (row.skipped !== undefined || row.result === undefined) return `| ${row.scenario} | skipped: ${row.skipped ?? 'no result'} | | | | | | | |`;
  const { result, reference } = row;
  const ratio = reference ? result.requestsPerSecond / reference.result.requestsPerSecond : undefined;
  const target = row.target === undefined ? '' : `≥ ${row.target.toFixed(2)} ${ratio !== undefined && ratio >= row.target ? 'met' : 'missed'}`;
  return [
    '',
    row.scenario,
    integer(result.requestsPerSecond),
    ms(result.p50Ms),
    ms(result.p99Ms),
    integer(result.failures),
    reference?.label ?? '',
    reference ? integer(reference.result.requestsPerSecond) : '',
    ratio === undefined ? '' : ratio.toFixed(3),
    target,
    '',
  ]
    .join(' | ')
    .trim();
}

export function formatThroughput(rows: ThroughputRow[]): string {
  return [
    '| scenario | req/s | p50 ms | p99 ms | failed requests | compared with | its req/s | ratio | target |',
    '|---|---:|---:|---:|---:|---|---:|---:|---|',
    ...rows.map(throughputLine),
  ].join('\n');
}

export function formatMemory(memory: MemoryReport): string {
  const perVersion = (memory.rssAfterBytes - memory.rssBeforeBytes) / memory.versions;
  return [
    '| warm versions | workers | RSS before | RSS after 1st pass | RSS after 2nd pass | per version | per isolate |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${memory.versions} | ${memory.workers} | ${megabytes(memory.rssBeforeBytes)} MB | ${megabytes(memory.rssAfterFirstPassBytes)} MB | ${megabytes(memory.rssAfterBytes)} MB | ${megabytes(perVersion)} MB | ${megabytes(perVersion / memory.workers)} MB |`,
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
    '',
  ].join('\n');
}
