import { benchComponent, demoComponent, generateVersions, packageInto, temporaryFolder } from '../bench-storage';
import { processTreeUsage } from '../process-tree';
import { probe, startRegistryServer, type MemoryReport, type Scenario } from '../scenario';

const VERSIONS = 500;
/** Sandbox host counts measured: the default on 2 CPUs, and the most the default takes on bigger machines. */
const HOST_COUNTS = [2, 4];
const SETTLE_MS = 1500;

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/**
 * RSS of the registry (front and sandbox hosts) before and after 500 distinct versions of one small
 * component were rendered, on 2 and on 4 sandbox hosts.
 */
export const memoryScenario: Scenario = {
  name: 'memory',
  usesSharedRegistry: false,
  async run() {
    const sources = await temporaryFolder('versions');
    const storage = await temporaryFolder('memory-storage');
    try {
      const copies = await generateVersions(benchComponent('bench-memory'), sources.path, VERSIONS);
      await packageInto(storage.path, [demoComponent('hello-world'), ...copies]);
      const memory: MemoryReport[] = [];
      for (const hosts of HOST_COUNTS) memory.push(await measure(storage.path, hosts));
      return {
        rows: [],
        memory,
        notes: [
          `memory: ${VERSIONS} versions of a tiny modern component (\`bench/components/bench-memory\` copied as 1.0.0…1.0.${VERSIONS - 1}), each rendered once in turn, then a second identical pass (RSS must stay flat: each version stays warm on the host it is routed to), on a registry with ${HOST_COUNTS.join(' and then ')} sandbox hosts and the other limits at their defaults; RSS of the registry process and its sandbox hosts (\`VmRSS\` summed) ${SETTLE_MS / 1000} s after each step; "before" is after hello-world was warmed.`,
        ],
      };
    } finally {
      await Promise.all([sources.remove(), storage.remove()]);
    }
  },
};

async function measure(storagePath: string, hosts: number): Promise<MemoryReport> {
  const registry = await startRegistryServer({ storagePath, limits: { sandboxHosts: hosts } });
  try {
    const render = async (path: string) => {
      const answer = await probe(registry.url, { method: 'GET', path });
      if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
    };
    // Warm what every execution needs once, so that "before" holds only per-version costs.
    for (let round = 0; round < 20; round++) await render('hello-world?name=Ada');
    await settle();
    const before = await processTreeUsage(registry.pid);
    const warmAll = async () => {
      for (let i = 0; i < VERSIONS; i++) await render(`bench-memory/1.0.${i}?name=Ada`);
      await settle();
      return (await processTreeUsage(registry.pid)).rssBytes;
    };
    const rssAfterFirstPassBytes = await warmAll();
    const rssAfterBytes = await warmAll();
    return { versions: VERSIONS, hosts: registry.ready.sandboxHosts ?? hosts, rssBeforeBytes: before.rssBytes, rssAfterFirstPassBytes, rssAfterBytes };
  } finally {
    await registry.stop();
  }
}
