import t from 'tap';
import { fixture, startRegistry } from '../helpers/start-registry';
import { BYSTANDER } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';

// Every hostile component at once, in random order, some requests dropped by their clients midway:
// the ways they break isolates meet (an isolate lost while another execution of it waits on a
// nested render, a cancel landing during a time limit…), which no test of one attack reaches.
const HOSTILE = [
  'hostile-memory-beside-waiter',
  'hostile-memory-beside-waiter?grow=true',
  'hostile-memory-array?grow=true',
  'hostile-memory-catastrophic',
  'hostile-loop-after-await',
  'hostile-never-settles',
  'hostile-spin-after-return',
  'hostile-orphan-children',
  'hostile-orphan-loop',
  'hostile-microtask-flood',
  'hostile-fan-out?shape=deep',
  'hostile-busy-after-nested?spin=true',
  'rendering-self-nesting?catch=true',
  'rendering-nested-parent?case=many-promise',
];
const FIXTURES = [...new Set([...HOSTILE.map((target) => target.split('?')[0]!), 'hostile-sync-loop', 'rendering-child', 'rendering-child-v2'])].map(fixture);
const TIMEOUT_MS = 1500;
const STORM_MS = 2500;
/** Beyond its time limit: a lost isolate's host is recycled, and replies cross two processes. */
const MARGIN_MS = 2500;

t.test('under a storm of hostile requests every request is answered within its time limit, and bystanders render', async (t) => {
  const { url } = await startRegistry(t, [...FIXTURES, BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    config.limits.executionTimeoutMs = TIMEOUT_MS;
    config.limits.memoryMb = 16;
    config.limits.concurrentPerHost = 4;
  });
  const late: string[] = [];
  const bystanders: number[] = [];
  const codes = new Set<string>();
  const end = performance.now() + STORM_MS;
  const client = async (index: number) => {
    // Each client goes on until the storm is over and it has had its bystander's turn: on a busy
    // machine a client's hostile requests may take the whole storm.
    let hadBystander = false;
    for (let turn = 0; performance.now() < end || !hadBystander; turn++) {
      const bystander = turn % 3 === index % 3;
      hadBystander ||= bystander;
      const target = bystander ? `hello-world?name=c${index}` : HOSTILE[Math.floor(Math.random() * HOSTILE.length)]!;
      const dropped = !bystander && Math.random() < 0.1;
      const signal = dropped ? AbortSignal.timeout(Math.floor(Math.random() * 500)) : AbortSignal.timeout(TIMEOUT_MS + MARGIN_MS);
      const sent = performance.now();
      try {
        const response = await fetch(url + target, { signal });
        const body = (await response.json()) as { code?: string };
        if (bystander) bystanders.push(response.status);
        else if (response.status !== 200) codes.add(`${response.status} ${body.code}`);
      } catch {
        if (!dropped) late.push(`${target} unanswered after ${Math.round(performance.now() - sent)} ms`);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, index) => client(index)));
  t.same(late, [], 'every request answered within its time limit and the margin');
  // The front answers an execution its host never answered, and recycles that host: it must not have had to.
  const metrics = parseMetrics(await (await fetch(`${url}metrics`)).text());
  t.equal(valueOf(metrics, 'tessera_sandbox_host_restarts_total', { reason: 'overdue' }), 0, 'no host left an execution unanswered');
  t.ok(bystanders.length >= 8, `bystanders were served amid the storm, every client's (${bystanders.length})`);
  t.same([...new Set(bystanders)], [200], 'every bystander request rendered');
  t.same(
    [...codes].filter((code) => !['500 MEMORY_LIMIT_EXCEEDED', '504 EXECUTION_TIMEOUT', '500 GENERIC_ERROR', '503 OVERLOADED', '500 SANDBOX_CRASHED', '503 SANDBOX_QUARANTINED'].includes(code)),
    [],
    `only the coded failures of hostile components (${[...codes].sort().join(', ')})`,
  );
});
