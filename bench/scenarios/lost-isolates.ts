import { benchComponent, demoComponent, generateVersions, packageInto, temporaryFolder } from '../bench-storage';
import { megabytes } from '../format-report';
import { processTreeUsage } from '../process-tree';
import { probe, startRegistryServer, type Scenario } from '../scenario';

const LOSSES = 100;
const SETTLE_MS = 2000;
const BYSTANDER = 'hello-world?name=Ada';

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/**
 * 100 requests in a row that each make V8 lose an isolate (100 versions of one component, so that no
 * version is quarantined and every loss costs a host recycle), each beside a bystander request; then
 * the registry's RSS and threads, front and hosts together, against before.
 */
export const lostIsolatesScenario: Scenario = {
  name: 'lost-isolates',
  usesSharedRegistry: false,
  async run() {
    const sources = await temporaryFolder('lost');
    const storage = await temporaryFolder('lost-storage');
    try {
      const copies = await generateVersions(benchComponent('bench-lost-isolate'), sources.path, LOSSES);
      await packageInto(storage.path, [demoComponent('hello-world'), ...copies]);
      const registry = await startRegistryServer({ storagePath: storage.path });
      try {
        for (let round = 0; round < 20; round++) await probe(registry.url, { method: 'GET', path: BYSTANDER });
        await settle();
        const before = await processTreeUsage(registry.pid);
        const codes = new Map<string, number>();
        let bystanderFailures = 0;
        const started = performance.now();
        for (let i = 0; i < LOSSES; i++) {
          const [lost, bystander] = await Promise.all([
            probe(registry.url, { method: 'GET', path: `bench-lost-isolate/1.0.${i}` }),
            probe(registry.url, { method: 'GET', path: BYSTANDER }),
          ]);
          const code = `${lost.status} ${(JSON.parse(lost.text) as { code?: string }).code ?? 'no code'}`;
          codes.set(code, (codes.get(code) ?? 0) + 1);
          if (bystander.status !== 200) bystanderFailures++;
        }
        const seconds = (performance.now() - started) / 1000;
        await settle();
        const after = await processTreeUsage(registry.pid);
        const answers = [...codes].map(([code, count]) => `${count} × ${code}`).join(', ');
        return {
          rows: [],
          table: [
            '| lost isolates | answers | bystander failures | seconds | RSS before | RSS after | threads before | threads after | processes after |',
            '|---:|---|---:|---:|---:|---:|---:|---:|---:|',
            `| ${LOSSES} | ${answers} | ${bystanderFailures} | ${seconds.toFixed(1)} | ${megabytes(before.rssBytes)} MB | ${megabytes(after.rssBytes)} MB | ${before.threads} | ${after.threads} | ${after.processes} |`,
          ].join('\n'),
          notes: [
            `lost-isolates: ${LOSSES} requests in a row, each to its own version of \`bench/components/bench-lost-isolate\` (a map grown until V8 runs out of memory), each beside a hello-world request; RSS (\`VmRSS\`) and threads of the registry process and its sandbox hosts ${SETTLE_MS / 1000} s before and after.`,
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
