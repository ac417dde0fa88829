import { createHash } from 'node:crypto';
import { combine, runLoad } from '../load';
import type { LoadResult } from '../load-options';
import { probe, probeProblem, startRegistryServer, type BenchRequest, type Scenario, type ThroughputRow } from '../scenario';

const REQUEST: BenchRequest = { method: 'GET', path: 'hello-world?name=Ada' };
/** The administrator's token of the scenario's registry: its tails see every execution. */
const ADMIN_TOKEN = 'bench-admin-token';
const TAILS = [0, 1, 10];
/** Each tail's events are read as they come, and dropped: a reader that keeps up. */
interface OpenTail {
  events: number;
  close(): void;
}

/** Opens a tail of every execution and reads it until closed; resolves once the registry said it is open. */
async function openTail(url: string): Promise<OpenTail> {
  const ending = new AbortController();
  const response = await fetch(`${url}~tail`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, signal: ending.signal });
  if (response.status !== 200) throw new Error(`GET /~tail answered ${response.status}: ${await response.text()}`);
  const reader = response.body!.getReader();
  const tail: OpenTail = { events: 0, close: () => ending.abort() };
  const decoder = new TextDecoder();
  let opened = (): void => {};
  let ended = (): void => {};
  const open = new Promise<void>((resolve, reject) => {
    opened = resolve;
    ended = () => reject(new Error('GET /~tail ended before it was open'));
  });
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        if (text.includes('event: open')) opened();
        tail.events += text.split('event: execution').length - 1;
      }
    } catch {
      // closed by the scenario
    }
    ended();
  })();
  await open;
  return tail;
}

/**
 * A rendered GET with 0, 1 and 10 tails open on the registry (each the administrator's, so it sees
 * every execution, read in this process as fast as it comes), in alternating rounds: what watching
 * costs rendering. The ratio is each count's req/s over the no-tail rounds'.
 */
export const renderWhileTailingScenario: Scenario = {
  name: 'render-while-tailing',
  usesSharedRegistry: false,
  async run(env) {
    const registry = await startRegistryServer({
      storagePath: env.storagePath,
      adminTokenSha256: createHash('sha256').update(ADMIN_TOKEN).digest('hex'),
      limits: { tailsPerTenant: Math.max(...TAILS) },
    });
    try {
      const problem = probeProblem(REQUEST, await probe(registry.url, REQUEST));
      if (problem) return { rows: TAILS.map((tails) => ({ scenario: `render-while-tailing, ${tails} tails`, skipped: problem })), notes: [] };
      const load = { url: registry.url + REQUEST.path, serverPid: registry.pid, generator: env.settings.loadGenerator, connections: env.settings.connections, method: REQUEST.method };
      if (env.settings.warmupSeconds > 0) await runLoad({ ...load, durationSeconds: env.settings.warmupSeconds });
      const rounds = new Map<number, LoadResult[]>(TAILS.map((tails) => [tails, []]));
      const events = new Map<number, number>(TAILS.map((tails) => [tails, 0]));
      for (let round = 0; round < env.settings.rounds; round++) {
        for (const tails of TAILS) {
          const open = await Promise.all(Array.from({ length: tails }, () => openTail(registry.url)));
          rounds.get(tails)!.push(await runLoad({ ...load, durationSeconds: env.settings.durationSeconds }));
          for (const tail of open) tail.close();
          events.set(tails, events.get(tails)! + open.reduce((sum, tail) => sum + tail.events, 0));
        }
      }
      const none = rounds.get(0)!;
      const rows: ThroughputRow[] = TAILS.map((tails) => {
        const measured = rounds.get(tails)!;
        const row: ThroughputRow = { scenario: `render-while-tailing, ${tails} tail${tails === 1 ? '' : 's'}`, result: combine(measured) };
        if (tails > 0) row.reference = { label: 'the same registry, no tail open', result: combine(none), roundRatios: measured.map((result, round) => result.requestsPerSecond / none[round]!.requestsPerSecond) };
        return row;
      });
      const read = TAILS.filter((tails) => tails > 0).map((tails) => `${tails} tail${tails === 1 ? '' : 's'}: ${events.get(tails)!.toLocaleString('en-US')} events read`);
      return {
        rows,
        notes: [
          `render-while-tailing: \`GET /${REQUEST.path}\` on a registry of its own with 0, 1 and 10 tails open (\`GET /~tail\` with the administrator's token: each sees every execution), read in the bench process as fast as they come; the counts measured in turn each round; ratio = req/s over the no-tail rounds' (${read.join('; ')}).`,
        ],
      };
    } finally {
      await registry.stop();
    }
  },
};
