import path from 'node:path';
import { temporaryFolder } from '../bench-storage';
import { installOc, OC_VERSION } from '../oc/install-oc';
import { OC_GREETING, OC_GREETINGS, OC_HELLO_WORLD, ocAuthoredCopies } from '../oc/oc-authored-copies';
import { packageOcComponent } from '../oc/package-oc-component';
import { batchProblem, compareInRounds, probe, probeProblem, type BenchRequest, type BenchSettings, type LoadedServer, type Scenario, type ThroughputRow } from '../scenario';
import { startServerProcess } from '../server-process';
import type { OcServerOptions } from '../servers/oc-server';

export const OC_SERVER = path.join(__dirname, '..', 'servers', 'oc-server.js');
const OC_LABEL = `OC ${OC_VERSION} registry (production mode, file storage)`;
const NAMES = ['Ada', 'Bob', 'Cy', 'Di', 'Ed'];

export interface Comparison {
  scenario: string;
  request: BenchRequest;
  target: number;
  /** A check of the answer's text besides its status; undefined when it is right. */
  problem?: (text: string) => string | undefined;
  /** Connections of the load, when not the run's (`--connections`). */
  connections?: number;
}

/** A page embedding the OC-authored greeting at the versions its teams pinned: latest twice, and three expressions over 1.0.0, 1.0.1, 1.1.0 and 2.0.0. */
export const MIXED_VERSIONS = [undefined, undefined, '1.0.0', '1.x.x', '~1.0.0'];
const batchOf = (items: Array<{ name: string; version?: string; parameters: Record<string, string> }>): BenchRequest => ({
  method: 'POST',
  path: '',
  body: JSON.stringify({ components: items }),
});

/** The OC-authored greeting at four version expressions, and five copies of it under five names (batch-5 measures them against plain fastify too). */
export const MIXED_VERSIONS_BATCH = batchOf(MIXED_VERSIONS.map((version, index) => ({ name: OC_GREETING, ...(version && { version }), parameters: { name: NAMES[index]! } })));
export const FIVE_COMPONENTS_BATCH = batchOf(OC_GREETINGS.map((name, index) => ({ name, parameters: { name: NAMES[index]! } })));

export const AT_RUN_CONNECTIONS: Comparison[] = [
  { scenario: 'oc-render', request: { method: 'GET', path: 'hello-world?name=Ada' }, target: 8 },
  {
    scenario: 'oc-batch-5',
    request: batchOf(NAMES.map((name) => ({ name: 'hello-world', parameters: { name } }))),
    target: 6,
    problem: (text) => batchProblem(NAMES.length, text),
  },
  { scenario: 'oc-batch-5, 4 versions', request: MIXED_VERSIONS_BATCH, target: 8, problem: (text) => batchProblem(MIXED_VERSIONS.length, text) },
  { scenario: 'oc-batch-5, 5 components', request: FIVE_COMPONENTS_BATCH, target: 8, problem: (text) => batchProblem(OC_GREETINGS.length, text) },
];
/**
 * wrk's own default of 10 connections: fewer requests share each hand-off between the front, a
 * sandbox host and an isolate's thread, so each costs the registry more (bench/FINDINGS.md).
 */
const FEW_CONNECTIONS = 10;
const COMPARISONS: Comparison[] = [
  ...AT_RUN_CONNECTIONS,
  ...AT_RUN_CONNECTIONS.map((comparison) => ({ ...comparison, scenario: `${comparison.scenario}, ${FEW_CONNECTIONS} connections`, connections: FEW_CONNECTIONS })),
];

const note = (compilerVersion?: string) =>
  `against-oc: Tessera against an OC ${OC_VERSION} registry: the \`oc\` package (installed by npm on first use, outside the project) in production mode over a small file-system storage adapter, in its own process, serving \`bench/oc-components/hello-world\` (the demo greeting's parameter and markup, packaged by OC's own CLI${compilerVersion ? ` with oc-template-es6-compiler ${compilerVersion}` : ''}). oc-render: \`GET /hello-world?name=Ada\`; oc-batch-5: \`POST /\` with hello-world 5 times (${NAMES.join(', ')}); oc-batch-5, 4 versions: the same greeting as \`${OC_GREETING}\` at 1.0.0, 1.0.1, 1.1.0 and 2.0.0 (packaged by Tessera's packager for Tessera, by OC's CLI for OC), asked as latest twice, \`1.0.0\`, \`1.x.x\` and \`~1.0.0\`; oc-batch-5, 5 components: five copies of it under five names (${OC_GREETINGS.join(', ')}); each again with ${FEW_CONNECTIONS} connections (wrk's default); ratio = Tessera's req/s over OC's. OC answers an es6 component with the script that renders it in the browser, not with its markup (its renderer for oc-template-es6 does not run the view on the server); Tessera answers the markup.`;

/** Why one of the servers does not answer the comparison's request as expected; undefined when both do. */
async function answerProblem(comparison: Comparison, servers: { name: string; url: string }[]): Promise<string | undefined> {
  for (const { name, url } of servers) {
    const answer = await probe(url, comparison.request);
    const problem = probeProblem(comparison.request, answer) ?? comparison.problem?.(answer.text);
    if (problem) return `${name}: ${problem}`;
  }
  return undefined;
}

export async function compareWithOc(settings: BenchSettings, comparison: Comparison, tessera: LoadedServer, oc: LoadedServer): Promise<ThroughputRow> {
  const { scenario, request, target } = comparison;
  const problem = await answerProblem(comparison, [
    { name: 'Tessera', url: tessera.url },
    { name: 'OC', url: oc.url },
  ]);
  if (problem) return { scenario, skipped: problem };
  const { subject, reference, roundRatios } = await compareInRounds({ ...settings, connections: comparison.connections ?? settings.connections }, tessera, oc, request);
  return { scenario, result: subject, reference: { label: OC_LABEL, result: reference, roundRatios }, target, rssTarget: 'at most the reference' };
}

/** The same rendered GET and batch on the shared registry and on a real OC registry, in alternating rounds. */
export const againstOcScenario: Scenario = {
  name: 'against-oc',
  usesSharedRegistry: true,
  async run(env) {
    // Without OC there is nothing to compare with: the rows say why, and the other scenarios still run.
    const install = await installOc().catch((error: Error) => error);
    if (install instanceof Error) return { rows: COMPARISONS.map(({ scenario }) => ({ scenario, skipped: install.message })), notes: [note()] };
    const tessera = await env.sharedRegistry();
    const storage = await temporaryFolder('oc-storage');
    try {
      const copies = await temporaryFolder('oc-authored');
      try {
        for (const dir of [OC_HELLO_WORLD, ...(await ocAuthoredCopies(copies.path))]) await packageOcComponent(install, dir, storage.path);
      } finally {
        await copies.remove();
      }
      const options: OcServerOptions = { ocPackage: install.ocPackage, storagePath: storage.path };
      const oc = await startServerProcess(OC_SERVER, options);
      try {
        const rows: ThroughputRow[] = [];
        for (const comparison of COMPARISONS) rows.push(await compareWithOc(env.settings, comparison, tessera, oc));
        return { rows, notes: [note(install.es6CompilerVersion)] };
      } finally {
        await oc.stop();
      }
    } finally {
      await storage.remove();
    }
  },
};
