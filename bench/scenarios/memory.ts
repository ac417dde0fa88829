import { benchComponent, demoComponent, generateVersions, packageInto, temporaryFolder } from '../bench-storage';
import { processTreeUsage } from '../process-tree';
import { probe, startRegistryServer, type Scenario } from '../scenario';

const VERSIONS = 200;
const SETTLE_MS = 1500;

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/** RSS of the registry (front and sandbox hosts) before and after 200 distinct versions were rendered. */
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
        const hosts = registry.ready.workers ?? 1;
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
        return {
          rows: [],
          memory: { versions: VERSIONS, workers: hosts, rssBeforeBytes: before.rssBytes, rssAfterFirstPassBytes, rssAfterBytes },
          notes: [
            `memory: ${VERSIONS} versions of a tiny modern component (\`bench/components/bench-memory\` copied as 1.0.0…1.0.${VERSIONS - 1}), each rendered once in turn, then a second identical pass (RSS must stay flat: each version stays warm on the host it is routed to); RSS of the registry process and its ${hosts} sandbox hosts (\`VmRSS\` summed) ${SETTLE_MS / 1000} s after each step; "before" is after hello-world was warmed.`,
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
