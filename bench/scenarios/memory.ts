import { readFile } from 'node:fs/promises';
import { benchComponent, demoComponent, generateVersions, packageInto, temporaryFolder } from '../bench-storage';
import { probe, startRegistryServer, type BenchRequest, type Scenario } from '../scenario';

const VERSIONS = 200;
const SETTLE_MS = 1000;

/** Resident set size of a process, from `/proc/<pid>/status` (Linux). */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kilobytes = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (kilobytes === undefined) throw new Error(`No VmRSS for process ${pid}.`);
  return Number(kilobytes) * 1024;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/**
 * Sends `copies` concurrent requests for one path: the pool hands each to its least busy worker, so
 * with at least two copies per worker every idle worker gets one and warms that version.
 */
async function warmOnEveryWorker(url: string, request: BenchRequest, copies: number): Promise<void> {
  const answers = await Promise.all(Array.from({ length: copies }, () => probe(url, request)));
  const failed = answers.find((answer) => answer.status !== 200);
  if (failed) throw new Error(`${request.path} answered ${failed.status}: ${failed.text.slice(0, 200)}`);
}

/** RSS of the registry process before and after 200 distinct versions were rendered on every worker. */
export const memoryScenario: Scenario = {
  name: 'memory',
  usesSharedRegistry: false,
  async run() {
    const sources = await temporaryFolder('versions');
    const storage = await temporaryFolder('memory-storage');
    try {
      const copies = await generateVersions(benchComponent('bench-memory'), sources.path, VERSIONS);
      await packageInto(storage.path, [demoComponent('hello-world'), ...copies]);
      const registry = await startRegistryServer({ storagePath: storage.path });
      try {
        const workers = registry.ready.workers ?? 1;
        const perVersionRequests = 2 * workers;
        // Warm what every execution needs once per worker, so that "before" holds only per-version costs.
        for (let round = 0; round < 3; round++) await warmOnEveryWorker(registry.url, { method: 'GET', path: 'hello-world?name=Ada' }, perVersionRequests);
        await settle();
        const rssBeforeBytes = await rssOf(registry.pid);
        const warmAll = async () => {
          for (let i = 0; i < VERSIONS; i++) await warmOnEveryWorker(registry.url, { method: 'GET', path: `bench-memory/1.0.${i}?name=Ada` }, perVersionRequests);
          await settle();
          return rssOf(registry.pid);
        };
        const rssAfterFirstPassBytes = await warmAll();
        const rssAfterBytes = await warmAll();
        return {
          rows: [],
          memory: { versions: VERSIONS, workers, rssBeforeBytes, rssAfterFirstPassBytes, rssAfterBytes },
          notes: [
            `memory: ${VERSIONS} versions of a tiny modern component (\`bench/components/bench-memory\` copied as 1.0.0…1.0.${VERSIONS - 1}), each rendered by ${perVersionRequests} concurrent requests so every one of the ${workers} workers holds it warm, then a second identical pass (RSS must stay flat if the first pass warmed every worker); RSS of the registry process (\`VmRSS\`, workers included) ${SETTLE_MS / 1000} s after each step; "before" is after hello-world was warmed on every worker.`,
          ],
        };
      } finally {
        await registry.stop();
      }
    } finally {
      await Promise.all([sources.remove(), storage.remove()]);
    }
  },
};
