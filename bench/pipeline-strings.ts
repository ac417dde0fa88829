/**
 * What the front's per-item strings cost in two builds, in one process: an execution's input (a batch
 * of 5 items of one component and a single item, with wrk's headers and with a browser's), the
 * wrapper of a rendered item, and its href. Each build's modules are loaded from its `dist/`, and
 * measured in alternating rounds (A, B, A, B…), so that the machine's drift, which moves a load test
 * by more than these costs, weighs on both alike. Prints the median nanoseconds of each.
 *
 *   node dist/bench/pipeline-strings.js <checkout A> <checkout B> [rounds]
 */
import path from 'node:path';
import type { RequestHeaders } from '../src/pipeline/call-values';
import type { BatchInputParts, ExecutionRequest } from '../src/pipeline/execution-input';
import type { WrapOptions } from '../src/pipeline/wrap-html';
import { median } from './load';
import { BROWSER_HEADERS, WRK_HEADERS } from './sample-headers';

interface Build {
  executionInput(request: ExecutionRequest): string;
  /** What a batch's items share, in the builds that have it (render-batch.ts makes one per batch). */
  BatchInputParts?: new () => BatchInputParts;
  wrapHtml(html: string, options: WrapOptions): string;
  buildHref(baseUrl: string, name: string, requestVersion: string, params: Record<string, unknown>): string;
}

const buildOf = (checkout: string): Build => {
  const pipeline = path.resolve(checkout, 'dist', 'src', 'pipeline');
  return {
    ...(require(path.join(pipeline, 'execution-input.js')) as Pick<Build, 'executionInput'>),
    ...(require(path.join(pipeline, 'wrap-html.js')) as Pick<Build, 'wrapHtml'>),
    ...(require(path.join(pipeline, 'build-href.js')) as Pick<Build, 'buildHref'>),
  };
};

const NAMES = ['Ada', 'Bob', 'Cy', 'Di', 'Ed'];
const VERSIONS = ['2.0.0', '2.0.0', '1.0.0', '1.1.0', '1.0.1'];
const EXPRESSIONS = ['', '', '1.0.0', '1.x.x', '~1.0.0'];
const BASE = 'http://127.0.0.1:8080/';

/** One request's inputs, `items` of them (more than one: a batch's), each request with a new headers object. */
const inputs = (build: Build, headers: RequestHeaders, items: number) => () => {
  const own = { ...headers };
  const shared = items > 1 && build.BatchInputParts ? new build.BatchInputParts() : undefined;
  let chars = 0;
  for (let index = 0; index < items; index++) {
    const name = NAMES[index]!;
    chars += build.executionInput({
      cookieScope: 'oc-greeting',
      mode: 'rendered',
      params: { name },
      given: { name },
      headers: own,
      baseUrl: BASE,
      staticPath: `${BASE}oc-greeting/${VERSIONS[index]}/static/`,
      tenantCookies: { bytes: 0, names: 0 },
      shared,
    }).length;
  }
  return chars;
};

const CASES: Array<[label: string, run: (build: Build) => (index: number) => number]> = [
  ['input, batch of 5, wrk headers', (build) => inputs(build, WRK_HEADERS, 5)],
  ['input, batch of 5, browser headers', (build) => inputs(build, BROWSER_HEADERS, 5)],
  ['input, one item, wrk headers', (build) => inputs(build, WRK_HEADERS, 1)],
  ['input, one item, browser headers', (build) => inputs(build, BROWSER_HEADERS, 1)],
  [
    'wrapper of one item',
    (build) => (index) =>
      build.wrapHtml('<div class="greeting"><h1>Hello, Ada!</h1></div>', {
        href: `${BASE}oc-greeting?name=Ada`,
        templateKey: 'a'.repeat(40),
        name: 'oc-greeting',
        version: VERSIONS[index % 5]!,
        container: false,
        renderInfo: true,
      }).length,
  ],
  ['href of one item', (build) => (index) => build.buildHref(BASE, 'oc-greeting', EXPRESSIONS[index % 5]!, { name: NAMES[index % 5] }).length],
];

const CALLS = 50_000;

/**
 * Nanoseconds per call of `run`, over CALLS calls, each followed by the end of its job (an `await`),
 * as an HTTP request's dispatch is: what a build does when the turn ends is counted too. The await's
 * own cost is the same for both builds.
 */
async function timed(run: (index: number) => number): Promise<number> {
  let chars = 0;
  const began = process.hrtime.bigint();
  for (let index = 0; index < CALLS; index++) {
    chars += run(index);
    await undefined;
  }
  const ns = Number(process.hrtime.bigint() - began) / CALLS;
  if (chars === 0) throw new Error('Nothing was built.');
  return ns;
}

async function main(): Promise<void> {
  const [a, b, roundsText = '8'] = process.argv.slice(2);
  if (!a || !b) throw new Error('Usage: pipeline-strings.js <checkout A> <checkout B> [rounds]');
  const builds = { A: buildOf(a), B: buildOf(b) };
  for (const [label, make] of CASES) {
    const runs = { A: make(builds.A), B: make(builds.B) };
    const ns: Record<'A' | 'B', number[]> = { A: [], B: [] };
    for (let round = 0; round < Number(roundsText); round++) for (const side of ['A', 'B'] as const) ns[side].push(await timed(runs[side]));
    console.log(`${label}: A ${median(ns.A).toFixed(0)} ns, B ${median(ns.B).toFixed(0)} ns`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
