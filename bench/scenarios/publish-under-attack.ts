import { createHash, randomBytes } from 'node:crypto';
import { contentHash } from '../../src/descriptor/content-hash';
import { packTarball } from '../../src/packager/pack-tarball';
import { packageComponent, type PackagedComponent } from '../../src/packager/package-component';
import { demoComponent, packageInto, temporaryFolder } from '../bench-storage';
import { megabytes } from '../format-report';
import { combine, median, runLoad } from '../load';
import type { LoadResult } from '../load-options';
import { processRss } from '../process-tree';
import { probe, startRegistryServer, type Scenario } from '../scenario';

/** The third tenant's load: renders of a small component (the default tenant's). */
const RENDER = 'hello-world?name=Ada';
const CONNECTIONS = 20;
/** Uploads the attacking tenant keeps in flight at once: as many as one front thread lets it (upload-slots.ts). */
const ATTACKERS = 4;
const ATTACK = 'attack-hello';
const BYSTANDER = 'bystander-hello';
const GOAL = { publishTimes: 2, publishPlusSeconds: 1, p99Times: 2, p99PlusMs: 10, rssPlusMb: 150 };
const RSS_SAMPLE_MS = 100;

interface Measured {
  attacked: boolean;
  load: LoadResult;
  /** Seconds each of the bystander's publishes took, from the benchmark's process (its upload included). */
  publishSeconds: number[];
  /** The most resident memory of the registry's own process (fronts and publish threads; its sandbox hosts apart). */
  mainPeakRssBytes: number;
  /** The attacker's answers, by status. */
  attackAnswers: Map<number, number>;
}

/**
 * The confirmed publish attack against a bystander: one tenant sends a 20 KB package whose
 * `server.js` is 19 MB of `0;` lines ending in a syntax error (its descriptor names the true size and
 * sha1, so it reaches every check a real package does), as dry runs, four at once and back to back,
 * while another tenant publishes an ordinary component back to back and a third tenant's component
 * is rendered under load. Each round measures the bystander and the renders without the attack, then
 * with it; the main process's resident memory is read every 100 ms.
 */
export const publishUnderAttackScenario: Scenario = {
  name: 'publish-under-attack',
  usesSharedRegistry: false,
  async run(env) {
    const { settings } = env;
    const storage = await temporaryFolder('attack-storage');
    try {
      await packageInto(storage.path, [demoComponent('hello-world')]);
      const tokens = { attacker: randomBytes(16).toString('hex'), bystander: randomBytes(16).toString('hex') };
      const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
      const publishTokens = [
        { tenant: 'attacker', sha256: sha256(tokens.attacker), components: ['attack-*'] },
        { tenant: 'bystander', sha256: sha256(tokens.bystander), components: ['bystander-*'] },
      ];
      // The attack is to meet the bounds of a publish's work, not the dry-run rate, which would refuse it before its upload is read.
      const registry = await startRegistryServer({ storagePath: storage.path, publishTokens, limits: { dryRunsPerHour: 1_000_000 } });
      try {
        const base = await packageComponent(demoComponent('hello-world'));
        const attack = await attackUpload(base);
        const answer = await probe(registry.url, { method: 'GET', path: RENDER });
        if (answer.status !== 200) throw new Error(`GET /${RENDER} answered ${answer.status}.`);
        const load = { generator: settings.loadGenerator, url: registry.url + RENDER, connections: CONNECTIONS, method: 'GET' as const, serverPid: registry.pid };
        if (settings.warmupSeconds > 0) await runLoad({ ...load, durationSeconds: settings.warmupSeconds });
        const idleRssBytes = await idleRss(registry.pid);

        let nextVersion = 0;
        const put = (path: string, token: string, body: Buffer) =>
          fetch(`${registry.url}${path}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' }, body });
        const publishUntil = async (loading: { done: boolean }): Promise<number[]> => {
          const seconds: number[] = [];
          while (!loading.done) {
            const version = `1.0.${nextVersion++}`;
            const upload = await bystanderUpload(base, version);
            const started = performance.now();
            const published = await put(`${BYSTANDER}/${version}`, tokens.bystander, upload);
            if (published.status !== 201) throw new Error(`Publishing ${BYSTANDER}@${version} answered ${published.status}: ${(await published.text()).slice(0, 200)}`);
            await published.arrayBuffer();
            seconds.push((performance.now() - started) / 1000);
          }
          return seconds;
        };
        const attackUntil = async (loading: { done: boolean }, answers: Map<number, number>): Promise<void> => {
          while (!loading.done) {
            const refused = await put(`${ATTACK}/1.0.0?dryRun=true`, tokens.attacker, attack);
            await refused.arrayBuffer();
            answers.set(refused.status, (answers.get(refused.status) ?? 0) + 1);
          }
        };
        const measure = async (attacked: boolean): Promise<Measured> => {
          const loading = { done: false };
          const stopSampling = sampleRss(registry.pid);
          const attackAnswers = new Map<number, number>();
          const attacking = attacked ? Promise.all(Array.from({ length: ATTACKERS }, () => attackUntil(loading, attackAnswers))) : Promise.resolve();
          const measured = runLoad({ ...load, durationSeconds: settings.durationSeconds }).finally(() => (loading.done = true));
          const [result, publishSeconds] = await Promise.all([measured, publishUntil(loading), attacking]);
          return { attacked, load: result, publishSeconds, mainPeakRssBytes: await stopSampling(), attackAnswers };
        };

        const rounds: Measured[] = [];
        for (let round = 0; round < settings.rounds; round++) for (const attacked of [false, true]) rounds.push(await measure(attacked));
        return {
          rows: [],
          table: formatTable(rounds, idleRssBytes),
          notes: [
            `publish-under-attack: a registry with its default configuration (publishThreads 1, ${registry.ready.sandboxHosts} sandbox hosts, the fronts its machine gets) over the file-system storage, \`limits.dryRunsPerHour\` lifted so that the attack meets the bounds of a publish's work rather than the rate of dry runs. Each of ${settings.rounds} rounds measures, for ${settings.durationSeconds} s each, without the attack then with it: \`GET /${RENDER}\` under load (${settings.loadGenerator}, ${CONNECTIONS} connections, the default tenant's component), the bystander tenant publishing new versions of the demo greeting as \`${BYSTANDER}\` back to back, and, with the attack, the attacking tenant sending \`PUT /${ATTACK}/1.0.0?dryRun=true\` ${ATTACKERS} at once, back to back: a ${(attack.length / 1000).toFixed(1)} KB upload whose \`server.js\` is 19 MB of \`0;\` lines ending in a syntax error, its descriptor naming its true size and sha1. Publish times are from the benchmark's process (upload included); the main process's resident memory (\`VmRSS\` of the registry's own process: its fronts and publish threads, its sandbox hosts apart) is read every ${RSS_SAMPLE_MS} ms; idle is the same reading after the render warm-up, before any publish. Goals: the bystander's median publish during the attack ≤ ${GOAL.publishTimes} × its median without + ${GOAL.publishPlusSeconds} s; render p99 ≤ ${GOAL.p99Times} × the same round's without + ${GOAL.p99PlusMs} ms; the main process's peak ≤ idle + ${GOAL.rssPlusMb} MB.`,
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

/** The attack's upload: the demo greeting with `server.js` replaced, the descriptor naming its true size and sha1. */
async function attackUpload(base: PackagedComponent): Promise<Buffer> {
  const server = Buffer.concat([Buffer.from('0;\n'.repeat((19 * 1024 * 1024) / 3)), Buffer.from('0 0\n')]);
  const descriptor = structuredClone(base.descriptor);
  descriptor.name = ATTACK;
  descriptor.oc.files.dataProvider = { ...descriptor.oc.files.dataProvider!, hashKey: contentHash(server), size: server.length };
  const files = new Map(base.files);
  files.set('server.js', server);
  files.set('package.json', Buffer.from(JSON.stringify(descriptor, null, 2)));
  return packTarball(files);
}

/** The demo greeting as the bystander's component, at `version`. */
function bystanderUpload(base: PackagedComponent, version: string): Promise<Buffer> {
  const files = new Map(base.files);
  files.set('package.json', Buffer.from(JSON.stringify({ ...base.descriptor, name: BYSTANDER, version }, null, 2)));
  return packTarball(files);
}

/** The main process's resident memory at rest: the median of a second's readings. */
async function idleRss(pid: number): Promise<number> {
  const readings: number[] = [];
  for (let reading = 0; reading < 10; reading++) {
    readings.push(await processRss(pid));
    await new Promise((resolve) => setTimeout(resolve, RSS_SAMPLE_MS));
  }
  return median(readings);
}

/** Reads the main process's resident memory until the answer is asked for: the most seen. */
function sampleRss(pid: number): () => Promise<number> {
  let peak = 0;
  let sampling = true;
  const done = (async () => {
    while (sampling) {
      peak = Math.max(peak, await processRss(pid));
      await new Promise((resolve) => setTimeout(resolve, RSS_SAMPLE_MS));
    }
  })();
  return async () => {
    sampling = false;
    await done;
    return peak;
  };
}

function formatTable(rounds: Measured[], idleRssBytes: number): string {
  const alone = rounds.filter((round) => !round.attacked);
  const attacked = rounds.filter((round) => round.attacked);
  const publishAlone = median(alone.flatMap((round) => round.publishSeconds));
  const publishAttacked = median(attacked.flatMap((round) => round.publishSeconds));
  const peak = Math.max(...attacked.map((round) => round.mainPeakRssBytes));
  const p99Met = attacked.filter((round, index) => round.load.p99Ms <= GOAL.p99Times * alone[index]!.load.p99Ms + GOAL.p99PlusMs).length;
  const row = (label: string, measured: Measured[], verdicts: string) => {
    const load = combine(measured.map((round) => round.load));
    const seconds = measured.flatMap((round) => round.publishSeconds);
    const answers = new Map<number, number>();
    for (const round of measured) for (const [status, count] of round.attackAnswers) answers.set(status, (answers.get(status) ?? 0) + count);
    const cells = [
      label,
      String(seconds.length),
      `${median(seconds).toFixed(2)} s`,
      `${Math.max(...seconds).toFixed(2)} s`,
      Math.round(load.requestsPerSecond).toLocaleString('en-US'),
      median(measured.map((round) => round.load.p99Ms)).toFixed(1),
      load.p99Ms.toFixed(1),
      String(load.failures),
      `${megabytes(Math.max(...measured.map((round) => round.mainPeakRssBytes)))} MB`,
      answers.size === 0 ? '' : [...answers].map(([status, count]) => `${count} × ${status}`).join(', '),
      verdicts,
    ];
    return `| ${cells.join(' | ')} |`;
  };
  const verdict = (met: boolean) => (met ? 'met' : 'missed');
  return [
    `Main process idle: ${megabytes(idleRssBytes)} MB.`,
    '',
    '| attack | bystander publishes | publish, median | publish, slowest | renders/s | render p99 ms, median round | render p99 ms, worst round | failed renders | main process peak RSS | attacker answers | goals |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
    row('none', alone, `p99 per round: ${alone.map((round) => round.load.p99Ms.toFixed(1)).join(', ')}`),
    row(
      `${ATTACKERS} at once`,
      attacked,
      [
        `publish ≤ ${GOAL.publishTimes} × ${publishAlone.toFixed(2)} + ${GOAL.publishPlusSeconds} s ${verdict(publishAttacked <= GOAL.publishTimes * publishAlone + GOAL.publishPlusSeconds)}`,
        `p99 met in ${p99Met} of ${attacked.length} rounds (${attacked.map((round) => round.load.p99Ms.toFixed(1)).join(', ')})`,
        `peak ≤ idle + ${GOAL.rssPlusMb} MB ${verdict(peak <= idleRssBytes + GOAL.rssPlusMb * 2 ** 20)} (+${megabytes(peak - idleRssBytes)} MB)`,
      ].join('; '),
    ),
  ].join('\n');
}
