import { readdir, readFile } from 'node:fs/promises';
import ivm from 'isolated-vm';
import { packageComponent } from '../../src/packager/package-component';
import { SERVER_TEMPLATE, templateTypeInfo } from '../../src/templates/template-types';
import { benchComponent, demoComponent, generateVersions, packageInto, temporaryFolder } from '../bench-storage';
import { probe, startRegistryServer, type BenchRequest, type Scenario } from '../scenario';

const VERSIONS = 20;
const SETTLE_MS = 1500;
const RENDERS = 2000;

const TYPES = [
  { type: 'oc-template-es6', component: 'bench-memory' },
  { type: 'oc-template-esm', component: 'bench-memory-esm' },
  { type: 'oc-template-react', component: 'bench-memory-react' },
];

/** Resident memory of a process and of every process it started (the sandbox hosts), from `/proc` (Linux). */
async function treeRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  let bytes = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0) * 1024;
  for (const thread of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    const children = (await readFile(`/proc/${pid}/task/${thread}/children`, 'utf8').catch(() => '')).split(' ').filter(Boolean);
    for (const child of children) bytes += await treeRss(Number(child));
  }
  return bytes;
}

/** The sandbox figures of `GET /metrics`: ready hosts, heap of the warm isolates, and how many there are. */
async function sandboxGauges(url: string): Promise<{ hosts: number; heapBytes: number; warmIsolates: number }> {
  const text = (await probe(url, { method: 'GET', path: 'metrics' })).text;
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { hosts: gauge('tessera_sandbox_hosts'), heapBytes: gauge('tessera_sandbox_isolate_heap_bytes'), warmIsolates: gauge('tessera_sandbox_warm_isolates') };
}

async function warmOnEveryHost(url: string, request: BenchRequest, copies: number): Promise<void> {
  const answers = await Promise.all(Array.from({ length: copies }, () => probe(url, request)));
  const failed = answers.find((answer) => answer.status !== 200);
  if (failed) throw new Error(`${request.path} answered ${failed.status}: ${failed.text.slice(0, 200)}`);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/**
 * The server template alone in a fresh isolate (as the sandbox evaluates it, without the prelude):
 * its size, the isolate's heap once it is loaded and has rendered, and the time of one render.
 */
async function isolateCosts(componentDir: string, type: string) {
  const { descriptor, files } = await packageComponent(componentDir);
  const file = templateTypeInfo(type)!.serverTemplate === 'template.js' ? 'template.js' : SERVER_TEMPLATE;
  const code = files.get(file)!.toString('utf8');
  const isolate = new ivm.Isolate({ memoryLimit: 64 });
  try {
    const context = await isolate.createContext();
    const started = performance.now();
    const script = await isolate.compileScript(`var oc;${code}\n;globalThis.view=oc.components[${JSON.stringify(descriptor.oc.files.template.hashKey)}];`);
    await script.run(context);
    const loadMs = performance.now() - started;
    const render = await isolate.compileScript(
      `(function(){var html;for(var i=0;i<${RENDERS};i++)html=view({name:'Ada',_staticPath:'http://127.0.0.1/x/1.0.0/static/',_baseUrl:'http://127.0.0.1/',_componentName:'x',_componentVersion:'1.0.0'});return html.length;})()`,
    );
    // The heap of a warm isolate: loaded, one render done, before the timed renders add garbage.
    await isolate.compileScript(`view({name:'Ada'})`).then((once) => once.run(context));
    const heap = await isolate.getHeapStatistics();
    await render.run(context); // warm-up: the JIT
    const renderStarted = performance.now();
    await render.run(context);
    const renderMicros = ((performance.now() - renderStarted) * 1000) / RENDERS;
    return { file, bytes: Buffer.byteLength(code), loadMs, renderMicros, heapBytes: heap.used_heap_size + heap.externally_allocated_size };
  } finally {
    isolate.dispose();
  }
}

const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);

/**
 * What a warm version of each template type costs: the server template alone in an isolate (heap,
 * load time, time per render), and a registry warming 20 versions on every sandbox host (resident
 * memory of the registry and its hosts, and the isolates' heap from its own metrics).
 */
export const templateMemoryScenario: Scenario = {
  name: 'template-memory',
  usesSharedRegistry: false,
  async run() {
    const lines: string[] = [];
    for (const { type, component } of TYPES) {
      const costs = await isolateCosts(benchComponent(component), type);
      const sources = await temporaryFolder('template-versions');
      const storage = await temporaryFolder('template-memory');
      try {
        const copies = await generateVersions(benchComponent(component), sources.path, VERSIONS);
        await packageInto(storage.path, [demoComponent('hello-world'), ...copies]);
        const registry = await startRegistryServer({ storagePath: storage.path });
        try {
          // Hosts start after the registry listens: ask until they all answer, then count them.
          await warmOnEveryHost(registry.url, { method: 'GET', path: 'hello-world?name=Ada' }, 8);
          await settle();
          const hosts = (await sandboxGauges(registry.url)).hosts;
          for (let round = 0; round < 3; round++) await warmOnEveryHost(registry.url, { method: 'GET', path: 'hello-world?name=Ada' }, 2 * hosts);
          await settle();
          const rssBefore = await treeRss(registry.pid);
          const before = await sandboxGauges(registry.url);
          for (let i = 0; i < VERSIONS; i++) await warmOnEveryHost(registry.url, { method: 'GET', path: `${component}/1.0.${i}?name=Ada` }, 2 * hosts);
          await settle();
          const rssAfter = await treeRss(registry.pid);
          const after = await sandboxGauges(registry.url);
          const isolates = after.warmIsolates - before.warmIsolates;
          lines.push(
            `| ${type} | ${costs.file}, ${(costs.bytes / 1000).toFixed(1)} kB | ${mb(costs.heapBytes)} MB | ${costs.loadMs.toFixed(1)} ms | ${costs.renderMicros.toFixed(1)} µs | ` +
              `${VERSIONS} versions, ${isolates} warm isolates on ${hosts} hosts | ${mb((rssAfter - rssBefore) / isolates)} MB | ${mb((after.heapBytes - before.heapBytes) / isolates)} MB |`,
          );
        } finally {
          await registry.stop();
        }
      } finally {
        await Promise.all([sources.remove(), storage.remove()]);
      }
    }
    return {
      rows: [],
      notes: [
        `template-memory: for each template type, a counter component (\`bench/components/bench-memory*\`): its server template alone in a fresh isolate (isolated-vm, 64 MB limit, no prelude): heap once loaded and after one render, time to compile and run the bundle, time of one render (${RENDERS} renders inside the isolate after as many to warm the JIT); then ${VERSIONS} versions of it, each asked by twice as many concurrent requests as there are sandbox hosts, on a registry with its default configuration: resident memory of the registry process and its hosts (\`VmRSS\`) and the warm isolates' heap (\`tessera_sandbox_isolate_heap_bytes\`), after minus before, per warm isolate; "before" is after hello-world was warmed on every host.`,
      ],
      table: [
        '| template type | server template | isolate heap, loaded, one render | load | one render | registry | RSS per warm isolate | heap per warm isolate |',
        '|---|---|---:|---:|---:|---|---:|---:|',
        ...lines,
      ].join('\n'),
    };
  },
};
