import path from 'node:path';
import { measureInRounds } from './load';
import type { LoadGeneratorName, LoadOptions, LoadResult } from './load-options';
import { startServerProcess, type ServerProcess } from './server-process';
import { NODE_FLAGS } from '../src/node-flags';
import type { BaselineServerOptions } from './servers/baseline-server';
import type { RegistryServerOptions } from './servers/registry-server';

export interface BenchSettings {
  loadGenerator: LoadGeneratorName;
  connections: number;
  /** Measured seconds of each round, per server. */
  durationSeconds: number;
  /** Rounds per comparison: each server is measured this many times, in turn with the other. */
  rounds: number;
  warmupSeconds: number;
}

/** What a scenario measures with, besides its settings. */
export interface BenchEnvironment {
  settings: BenchSettings;
  /** Storage holding the demo components and the bench components. */
  storagePath: string;
  /** A registry with default limits over `storagePath`, shared by the scenarios that need it. */
  sharedRegistry(): Promise<ServerProcess>;
}

/** One line of the throughput table. */
export interface ThroughputRow {
  scenario: string;
  result?: LoadResult;
  /** What the ratio is taken against, measured in the same run, in rounds alternating with `result`'s. */
  reference?: { label: string; result: LoadResult; roundRatios: number[] };
  target?: number;
  /** The most the registry's p99 may be, as a multiple of the reference's p99. */
  p99Target?: number;
  /** The most CPU (µs, front and sandbox hosts together) one request may cost the registry. */
  cpuTarget?: number;
  /** The registry's peak RSS under the load may be at most the reference's. */
  rssTarget?: 'at most the reference';
  /** Why the scenario did not run. */
  skipped?: string;
}

export interface MemoryReport {
  versions: number;
  hosts: number;
  rssBeforeBytes: number;
  rssAfterFirstPassBytes: number;
  rssAfterBytes: number;
}

export interface ScenarioReport {
  rows: ThroughputRow[];
  /** One per sandbox host count measured. */
  memory?: MemoryReport[];
  /** A table of the scenario's own, already formatted as markdown. */
  table?: string;
  /** Method details specific to this scenario. */
  notes: string[];
}

export interface Scenario {
  name: string;
  /** Whether it measures the shared registry (the runner starts and stops that one around such scenarios). */
  usesSharedRegistry: boolean;
  run(env: BenchEnvironment): Promise<ScenarioReport>;
}

export interface BenchRequest {
  method: 'GET' | 'POST';
  /** Path and query, without the leading slash. */
  path: string;
  body?: string;
}

const REGISTRY_SERVER = path.join(__dirname, 'servers', 'registry-server.js');
const BASELINE_SERVER = path.join(__dirname, 'servers', 'baseline-server.js');

/** A registry in its own process over a filled storage, with optional limit overrides. */
export const startRegistryServer = (options: RegistryServerOptions): Promise<ServerProcess> => startServerProcess(REGISTRY_SERVER, options, NODE_FLAGS);
const startBaselineServer = (options: BaselineServerOptions): Promise<ServerProcess> => startServerProcess(BASELINE_SERVER, options);

/** Sends one request and answers its status and text. */
export async function probe(baseUrl: string, request: BenchRequest): Promise<{ status: number; text: string }> {
  const response = await fetch(baseUrl + request.path, {
    method: request.method,
    headers: request.body === undefined ? undefined : { 'content-type': 'application/json' },
    body: request.body,
  });
  return { status: response.status, text: await response.text() };
}

/** Why a probe's answer is not the expected 200, in a few words; undefined when it is. */
export function probeProblem(request: BenchRequest, answer: { status: number; text: string }): string | undefined {
  if (answer.status === 200) return undefined;
  let code = '';
  try {
    code = ` ${(JSON.parse(answer.text) as { code?: string }).code ?? ''}`;
  } catch {
    // not a JSON error body: the status says enough
  }
  return `${request.method} /${request.path.split('?')[0]} answered ${answer.status}${code.trimEnd()}`;
}

/** Why a batch answer is not `items` successful items; undefined when it is. */
export function batchProblem(items: number, text: string): string | undefined {
  let answers: unknown;
  try {
    answers = JSON.parse(text);
  } catch {
    return 'POST / did not answer JSON';
  }
  if (!Array.isArray(answers) || answers.length !== items) return `POST / did not answer an array of ${items} items`;
  const failed = answers.filter((answer: { status?: unknown }) => answer.status !== 200).length;
  return failed > 0 ? `${failed} of the ${items} batch items failed` : undefined;
}

/** A server under load: where it answers, and its process (whose CPU is measured) when known. */
export interface LoadedServer {
  url: string;
  pid?: number;
}

const loadOptions = (settings: BenchSettings, server: LoadedServer, request: BenchRequest): LoadOptions => ({
  url: server.url + request.path,
  serverPid: server.pid,
  generator: settings.loadGenerator,
  connections: settings.connections,
  durationSeconds: settings.durationSeconds,
  method: request.method,
  body: request.body,
});

/** Measures `request` on two servers in alternating rounds (bench/load.ts). */
export const compareInRounds = (settings: BenchSettings, subject: LoadedServer, reference: LoadedServer, request: BenchRequest) =>
  measureInRounds(loadOptions(settings, subject, request), loadOptions(settings, reference, request), settings);

/**
 * Measures `request` on the registry and on a plain fastify server answering a body of the same
 * size on the same route shape, in alternating rounds; `registryBody` is the registry's answer.
 */
async function compareWithBaseline(
  settings: BenchSettings,
  scenario: string,
  registry: LoadedServer,
  request: BenchRequest,
  registryBody: string,
  targets: Pick<ThroughputRow, 'target' | 'p99Target' | 'cpuTarget'>,
): Promise<ThroughputRow> {
  const baseline = await startBaselineServer({ body: registryBody });
  try {
    const answer = await probe(baseline.url, request);
    if (Buffer.byteLength(answer.text) !== Buffer.byteLength(registryBody)) throw new Error('The baseline answered a body of another size.');
    const { subject, reference, roundRatios } = await compareInRounds(settings, registry, baseline, request);
    return { scenario, result: subject, reference: { label: `plain fastify, ${Buffer.byteLength(registryBody)}-byte body`, result: reference, roundRatios }, ...targets };
  } finally {
    await baseline.stop();
  }
}

/** A further request a baseline scenario measures the same way, in a row of its own, with no goal. */
export interface AlongsideRequest {
  name: string;
  request: BenchRequest;
  problem?: (text: string) => string | undefined;
}

/**
 * A scenario of one request on the shared registry against the plain-fastify baseline, and of each
 * `alongside` request in a row of its own. The registry's answer is checked first (`problem` adds a
 * scenario's own check of its text); a wrong answer is reported in the row instead of being measured.
 */
export function baselineScenario(options: {
  name: string;
  request: BenchRequest;
  note: string;
  target?: number;
  p99Target?: number;
  cpuTarget?: number;
  problem?: (text: string) => string | undefined;
  alongside?: AlongsideRequest[];
}): Scenario {
  const { name, request, note, target, p99Target, cpuTarget } = options;
  const measured = [{ name, request, problem: options.problem, targets: { target, p99Target, cpuTarget } }, ...(options.alongside ?? []).map((row) => ({ ...row, targets: {} }))];
  return {
    name,
    usesSharedRegistry: true,
    async run(env) {
      const registry = await env.sharedRegistry();
      const rows: ThroughputRow[] = [];
      for (const row of measured) {
        const answer = await probe(registry.url, row.request);
        const problem = probeProblem(row.request, answer) ?? row.problem?.(answer.text);
        rows.push(problem ? { scenario: row.name, skipped: problem } : await compareWithBaseline(env.settings, row.name, registry, row.request, answer.text, row.targets));
      }
      return { rows, notes: [note] };
    },
  };
}
