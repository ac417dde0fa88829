import { createHash, randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { packageComponent } from '../../src/packager/package-component';
import { TAR_END, tarEntries } from '../../src/packager/pack-tarball';
import { BIG_TENANT, largePackage } from '../../test/helpers/large-package';
import { demoComponent, packageInto, temporaryFolder } from '../bench-storage';
import { combine, median, runLoad } from '../load';
import type { LoadResult } from '../load-options';
import { probe, startRegistryServer, type Scenario } from '../scenario';

/** The loaded component: another tenant's small one. */
const RENDER = 'hello-world?name=Ada';
/** As the registry was measured when publishing ran on the front's event loop (`wrk -t1 -c20`). */
const CONNECTIONS = 20;
/** Publishes under way at once during a measured load: none, one, three. */
const PUBLISHERS = [0, 1, 3];
const LARGE = 'bench-large';
const GOAL = { p99Times: 2, p99PlusMs: 10 };

interface Measured {
  publishers: number;
  load: LoadResult;
  /** Seconds each publish took, from the benchmark's process (its upload included). */
  publishSeconds: number[];
}

/**
 * Renders of a small component, under load, without and during large publishes of another tenant:
 * publishing runs in the registry's publish threads, so the fronts' event loops only route uploads.
 * Each round measures the load alone, then with one publisher, then with three, each publishing
 * new versions of a large package back to back for the whole load.
 */
export const publishWhileRenderingScenario: Scenario = {
  name: 'publish-while-rendering',
  usesSharedRegistry: false,
  async run(env) {
    const { settings } = env;
    const storage = await temporaryFolder('publish-storage');
    try {
      await packageInto(storage.path, [demoComponent('hello-world')]);
      const token = randomBytes(16).toString('hex');
      const publishTokens = [{ tenant: 'bench', sha256: createHash('sha256').update(token).digest('hex'), components: ['bench-*'] }];
      const registry = await startRegistryServer({ storagePath: storage.path, publishTokens });
      try {
        const uploads = await largeUploads();
        const answer = await probe(registry.url, { method: 'GET', path: RENDER });
        if (answer.status !== 200) throw new Error(`GET /${RENDER} answered ${answer.status}.`);
        const load = { generator: settings.loadGenerator, url: registry.url + RENDER, connections: CONNECTIONS, method: 'GET' as const, serverPid: registry.pid };
        if (settings.warmupSeconds > 0) await runLoad({ ...load, durationSeconds: settings.warmupSeconds });

        let nextVersion = 0;
        const publishUntil = async (loading: { done: boolean }): Promise<number[]> => {
          const seconds: number[] = [];
          while (!loading.done) {
            const version = `1.0.${nextVersion++}`;
            const started = performance.now();
            const published = await fetch(`${registry.url}${LARGE}/${version}`, {
              method: 'PUT',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
              body: uploads(version),
            });
            if (published.status !== 201) throw new Error(`Publishing ${LARGE}@${version} answered ${published.status}: ${(await published.text()).slice(0, 200)}`);
            await published.arrayBuffer();
            seconds.push((performance.now() - started) / 1000);
          }
          return seconds;
        };
        const measure = async (publishers: number): Promise<Measured> => {
          const loading = { done: false };
          const measured = runLoad({ ...load, durationSeconds: settings.durationSeconds }).finally(() => (loading.done = true));
          const publishing = Promise.all(Array.from({ length: publishers }, () => publishUntil(loading)));
          const [result, times] = await Promise.all([measured, publishing]);
          return { publishers, load: result, publishSeconds: times.flat() };
        };

        const rounds: Measured[] = [];
        for (let round = 0; round < settings.rounds; round++) for (const publishers of PUBLISHERS) rounds.push(await measure(publishers));
        return {
          rows: [],
          table: formatTable(rounds),
          notes: [
            `publish-while-rendering: \`GET /${RENDER}\` under load (${settings.loadGenerator}, ${CONNECTIONS} connections, ${settings.durationSeconds} s per measurement, ${settings.rounds} rounds of: no publish, 1 publisher, 3 publishers at once), on a registry with its default configuration (publishThreads 1) over the file-system storage. A publisher publishes new versions of \`${LARGE}\` back to back through \`PUT /:name/:version\` until the load ends: the demo greeting with its server bundle padded with code to ${BIG_TENANT.serverBytes / 1e6} MB and ${BIG_TENANT.staticBytes / 1e6} MB of incompressible static files (a ${(uploads('1.0.0').length / 1e6).toFixed(1)} MB upload). p50 is the median round's, max the slowest render of all rounds; goal: p99 during publishes ≤ ${GOAL.p99Times} × p99 without + ${GOAL.p99PlusMs} ms, judged round by round against the load alone of the same round (the machine's other load comes and goes over seconds).`,
          ],
        };
      } finally {
        await registry.stop();
      }
    } finally {
      await storage.remove();
    }
  },
};

/**
 * The large package's upload for any version, made without compressing 6 MB again for each: a gzip
 * stream may hold several members, read as one (RFC 1952 §2.2), so the bulk of the tarball (server
 * bundle, static files) is compressed once, and each version adds a small member holding its own
 * descriptor and the archive's end.
 */
async function largeUploads(): Promise<(version: string) => Buffer> {
  const files = largePackage(await packageComponent(demoComponent('hello-world')), LARGE, '1.0.0', BIG_TENANT);
  const descriptor = JSON.parse(files.get('package.json')!.toString('utf8')) as { version: string };
  files.delete('package.json');
  const bulk = gzipSync(tarEntries(files));
  return (version) => {
    const own = new Map([['package.json', Buffer.from(JSON.stringify({ ...descriptor, version }, null, 2))]]);
    return Buffer.concat([bulk, gzipSync(Buffer.concat([tarEntries(own), TAR_END]))]);
  };
}

/** Within `GOAL` of the same round's load alone: the rounds meet the same other load on the machine alike. */
const meetsGoal = (during: LoadResult, alone: LoadResult): boolean => during.p99Ms <= GOAL.p99Times * alone.p99Ms + GOAL.p99PlusMs;

function formatTable(rounds: Measured[]): string {
  const roundsOf = (publishers: number) => rounds.filter((round) => round.publishers === publishers);
  const alone = roundsOf(0).map((round) => round.load);
  const ms = (value: number) => value.toFixed(1);
  return [
    '| publishes at once | renders/s | p50 ms | p99 ms, median round | p99 ms, worst round | max ms | failed renders | publishes done | publish time, median | goal: p99 ≤ 2 × alone + 10 ms, round by round |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...PUBLISHERS.map((publishers) => {
      const measured = roundsOf(publishers);
      const load = combine(measured.map((round) => round.load));
      const seconds = measured.flatMap((round) => round.publishSeconds);
      const p99s = measured.map((round) => round.load.p99Ms);
      const met = measured.filter((round, index) => meetsGoal(round.load, alone[index]!)).length;
      const cells = [
        publishers === 0 ? 'none' : String(publishers),
        Math.round(load.requestsPerSecond).toLocaleString('en-US'),
        ms(load.p50Ms),
        ms(median(p99s)),
        ms(load.p99Ms),
        ms(load.maxMs),
        String(load.failures),
        publishers === 0 ? '' : String(seconds.length),
        publishers === 0 ? '' : `${median(seconds).toFixed(2)} s`,
        publishers === 0 ? `p99 per round: ${p99s.map(ms).join(', ')}` : `met in ${met} of ${measured.length} (p99 per round: ${p99s.map(ms).join(', ')})`,
      ];
      return `| ${cells.join(' | ')} |`;
    }),
  ].join('\n');
}
