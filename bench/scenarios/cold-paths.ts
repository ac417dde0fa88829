import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { packTarball } from '../../src/packager/pack-tarball';
import { packageComponent } from '../../src/packager/package-component';
import { uploadPackage } from '../../src/cli/upload-package';
import { DEMO_COMPONENTS_DIR } from '../../src/demo/publish-demo-components';
import { benchComponent, generateVersions, temporaryFolder } from '../bench-storage';
import { START_LIMIT_MS, startCliRegistry } from '../cli-registry';
import { megabytes, verdict } from '../format-report';
import { median } from '../load';
import { processTreeMemory } from '../process-tree';
import { probe, type Scenario } from '../scenario';
import { NODE_FLAGS } from '../../src/node-flags';

/** Sequential requests after every demo component was rendered once, before the registry idles. */
const REQUESTS_BEFORE_IDLE = 200;
const IDLE_MS = 8000;
/** Versions published and rendered per template type: the first is a new component, the others new versions of a warm one. */
const VERSIONS = 5;
const TEMPLATE_COMPONENTS = [
  { type: 'es6', component: 'bench-memory' },
  { type: 'esm', component: 'bench-memory-esm' },
  { type: 'react', component: 'bench-memory-react' },
];

const GOALS = { startMs: 3000, firstRenderMs: 50, idleBytes: 150 * 2 ** 20 };

const milliseconds = (ms: number) => `${ms.toFixed(1)} ms`;

interface StartedCli {
  url: string;
  pid: number;
  /** From spawning `tessera start` to the first 200 of `GET /hello-world`. */
  startMs: number;
  stop(): Promise<void>;
}

/**
 * The three cold paths of the registry, through its command line as a newcomer meets them:
 * `tessera start --with-demo` to serving the demo (on empty storage, then on the storage it filled),
 * the memory of that registry once idle, and the first render of versions published to it.
 */
export const coldPathsScenario: Scenario = {
  name: 'cold-paths',
  usesSharedRegistry: false,
  async run() {
    const storage = await temporaryFolder('cold-storage');
    const sources = await temporaryFolder('cold-sources');
    try {
      const token = randomBytes(16).toString('hex');
      const emptyStart = await startCli(storage.path, token);
      await emptyStart.stop();
      const registry = await startCli(storage.path, token);
      try {
        const idle = await idleMemory(registry);
        const firsts = [];
        for (const { type, component } of TEMPLATE_COMPONENTS) firsts.push({ type, ...(await firstRenders(registry.url, token, component, sources.path)) });
        return {
          rows: [],
          table: formatTable(emptyStart.startMs, registry.startMs, idle, firsts),
          notes: [
            `cold-paths: \`tessera start --with-demo\` (bin/tessera.js, what \`npm start\` runs, without npm's own start) on an empty storage folder, which it fills with the packaged demo, then again on that folder: time from spawning the process to the first 200 of \`GET /hello-world?name=Ada\`. On the second registry: every demo component rendered once, then ${REQUESTS_BEFORE_IDLE} sequential \`GET /hello-world?name=Ada\`, then ${IDLE_MS / 1000} s idle: \`VmRSS\` and \`Pss\` (\`/proc/<pid>/smaps_rollup\`, which shares the pages of the Node.js binary between the processes that map it) of the registry process and each sandbox host. Then, for each template type, ${VERSIONS} versions of a small component (\`bench/components/bench-memory*\`) published in turn through \`PUT /:name/:version\` and each rendered twice (time of the whole request, from the benchmark's process): the first version is a component no host has run (its isolate built), the others are new versions of a warm component (a context in its isolate).`,
          ],
        };
      } finally {
        await registry.stop();
      }
    } finally {
      await Promise.all([storage.remove(), sources.remove()]);
    }
  },
};

/** Spawns `tessera start --with-demo` on a free port and answers once `GET /hello-world` answers 200. */
async function startCli(storagePath: string, token: string): Promise<StartedCli> {
  const started = performance.now();
  const tokens = [{ tenant: 'bench', sha256: createHash('sha256').update(token).digest('hex'), components: ['bench-*'] }];
  const registry = await startCliRegistry(['--with-demo', '--port', '0', '--storage', storagePath], NODE_FLAGS, { TESSERA_PUBLISH_TOKENS: JSON.stringify(tokens) });
  try {
    for (;;) {
      const answer = await probe(registry.url, { method: 'GET', path: 'hello-world?name=Ada' });
      if (answer.status === 200) break;
      if (performance.now() - started > START_LIMIT_MS) throw new Error(`GET /hello-world answered ${answer.status} ${START_LIMIT_MS / 1000} s after the start.`);
      await sleep(10);
    }
    return { ...registry, startMs: performance.now() - started };
  } catch (error) {
    await registry.stop();
    throw error;
  }
}

interface IdleMemory {
  frontRss: number;
  hostsRss: number[];
  rss: number;
  pss: number;
}

async function idleMemory(registry: StartedCli): Promise<IdleMemory> {
  const demos = (await readdir(DEMO_COMPONENTS_DIR, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  for (const name of demos) await expectOk(registry.url, await withExamples(registry.url, name));
  for (let i = 0; i < REQUESTS_BEFORE_IDLE; i++) await expectOk(registry.url, 'hello-world?name=Ada');
  await sleep(IDLE_MS);
  const [front, ...hosts] = await processTreeMemory(registry.pid);
  const all = [front!, ...hosts];
  return {
    frontRss: front!.rssBytes,
    hostsRss: hosts.map((host) => host.rssBytes),
    rss: all.reduce((sum, p) => sum + p.rssBytes, 0),
    pss: all.reduce((sum, p) => sum + p.pssBytes, 0),
  };
}

/** A demo component's path with its mandatory parameters set to their examples (from its `~info`). */
async function withExamples(url: string, name: string): Promise<string> {
  const info = await probe(url, { method: 'GET', path: `${name}/~info` });
  const parameters = (JSON.parse(info.text) as { oc?: { parameters?: Record<string, { mandatory?: boolean; example?: unknown }> } }).oc?.parameters ?? {};
  const query = new URLSearchParams();
  for (const [parameter, spec] of Object.entries(parameters)) if (spec.mandatory) query.set(parameter, String(spec.example));
  return query.size === 0 ? name : `${name}?${query}`;
}

/** The first render of a version, and its second (warm). */
interface RenderTimes {
  first: number;
  second: number;
}

/**
 * Publishes VERSIONS versions of a component in turn and times the first and the second render of
 * each: the first version is a component no host has run, the others new versions of a warm one.
 */
async function firstRenders(url: string, token: string, component: string, folder: string): Promise<{ newComponent: RenderTimes; newVersions: RenderTimes[] }> {
  const copies = await generateVersions(benchComponent(component), path.join(folder, component), VERSIONS);
  const times: RenderTimes[] = [];
  for (const dir of copies) {
    const packaged = await packageComponent(dir);
    const { name, version } = packaged.descriptor;
    const answer = await uploadPackage(new URL(`${name}/${version}`, url), await packTarball(packaged.files), token, () => {});
    if (answer.status !== 201) throw new Error(`Publishing ${name}@${version} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    const first = await timedRender(url, `${name}/${version}?name=Ada`);
    times.push({ first, second: await timedRender(url, `${name}/${version}?name=Ada`) });
  }
  const [newComponent, ...newVersions] = times;
  return { newComponent: newComponent!, newVersions };
}

async function timedRender(url: string, request: string): Promise<number> {
  const started = performance.now();
  await expectOk(url, request);
  return performance.now() - started;
}

async function expectOk(url: string, request: string): Promise<void> {
  const answer = await probe(url, { method: 'GET', path: request });
  if (answer.status !== 200) throw new Error(`GET /${request} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
}


function formatTable(emptyStartMs: number, filledStartMs: number, idle: IdleMemory, firsts: { type: string; newComponent: RenderTimes; newVersions: RenderTimes[] }[]): string {
  const worstFirst = Math.max(...firsts.flatMap((f) => [f.newComponent, ...f.newVersions].map((times) => times.first)));
  const warmFirsts = (f: (typeof firsts)[number]) => f.newVersions.map((times) => times.first);
  const perType = (pick: (f: (typeof firsts)[number]) => string) => firsts.map((f) => `${f.type} ${pick(f)}`).join('; ');
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return [
    '| cold path | goal | measured |',
    '|---|---|---|',
    `| \`tessera start --with-demo\` to the first \`GET /hello-world\` 200, empty storage (the demo packaged and published first) | ≤ 3 s ${verdict(emptyStartMs <= GOALS.startMs)} | ${seconds(emptyStartMs)} |`,
    `| the same on the storage it filled | ≤ 3 s ${verdict(filledStartMs <= GOALS.startMs)} | ${seconds(filledStartMs)} |`,
    `| first render of a freshly published version of a component no host has run (then its second render) | ≤ 50 ms ${verdict(worstFirst <= GOALS.firstRenderMs)} (worst of all first renders) | ${perType((f) => `${milliseconds(f.newComponent.first)} (${milliseconds(f.newComponent.second)})`)} |`,
    `| first render of a freshly published version of a warm component, median and worst of ${VERSIONS - 1} (second renders: median) | ≤ 50 ms | ${perType((f) => `${milliseconds(median(warmFirsts(f)))}, ${milliseconds(Math.max(...warmFirsts(f)))} (${milliseconds(median(f.newVersions.map((times) => times.second)))})`)} |`,
    `| memory of the registry serving the demo, idle: \`VmRSS\` summed (registry process + each sandbox host); \`Pss\` summed | ≤ 150 MB ${verdict(idle.rss <= GOALS.idleBytes)} | ${megabytes(idle.rss)} MB (${[idle.frontRss, ...idle.hostsRss].map((rss) => `${megabytes(rss)} MB`).join(' + ')}); Pss ${megabytes(idle.pss)} MB |`,
  ].join('\n');
}
