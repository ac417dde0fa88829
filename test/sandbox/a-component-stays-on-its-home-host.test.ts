import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { fixture, request, startRegistry, TWO_HOSTS, type StartedRegistry } from '../helpers/start-registry';
import { hostsUp, until, warmIsolates } from './wait-for';

/** Every host has reported its warm isolates since they changed: two heartbeats. */
const REPORTED_MS = 1200;
/** Long enough for the checks below to run while every execution is still under way. */
const LIMIT_MS = 4000;

/**
 * `count` executions of a component that never answers, under way at once until their time limit:
 * however busy the machine, none ends before `check` has run. Answers their bodies' codes, once ended.
 */
async function underWayAtOnce(t: Parameters<typeof startRegistry>[0], count: number, check: (started: StartedRegistry) => Promise<void>): Promise<string[]> {
  const started = await startRegistry(t, [fixture('hostile-never-settles')], (config) => {
    TWO_HOSTS(config);
    config.limits.executionTimeoutMs = LIMIT_MS;
  });
  const { registry, url } = started;
  await hostsUp(registry, 2);
  // The first execution builds the component on its home host. A build that runs past the busy mark
  // (100 ms: on a machine whose CPUs are busy with other work) has the host report the component
  // busy, and the fronts rightly send the next executions around it: the rest are sent once the
  // build is done and no host reports it busy.
  const answers = [request(`${url}hostile-never-settles`)];
  await warmIsolates(registry, 1);
  await until(() => registry.pool.stats().busyComponents === 0);
  for (let sent = 1; sent < count; sent++) answers.push(request(`${url}hostile-never-settles`));
  await check(started);
  return (await Promise.all(answers)).map((answer) => answer.body.code as string);
}

// Each test waits out its executions' limit on a registry of its own, mostly idle: both at once.
t.jobs = 2;

t.test('a component with fewer than 64 executions under way runs on its home host only', async (t) => {
  const codes = await underWayAtOnce(t, 56, async ({ registry }) => {
    await warmIsolates(registry, 1);
    await sleep(REPORTED_MS);
    t.equal(registry.pool.stats().warmIsolates, 1, 'one warm isolate: the other host never built the component');
  });
  t.same(codes, Array(56).fill('EXECUTION_TIMEOUT'));
});

// The default cap of a component (128) admits them all at once: none waits in its queue, and the
// executions past 64 reach the other host. With a cap of 64 they would wait, and stay on one host.
t.test('past 64 executions of a component under way on its home host, the next go to another host; the default cap admits 96 at once', async (t) => {
  const codes = await underWayAtOnce(t, 96, async ({ registry, url }) => {
    // Every execution has reached the pool once the slots held and those waiting make 96 (95: a
    // machine slow enough to end the first, sent alone before the others, at its time limit meanwhile).
    const slotsHeld = async () => [...(await (await fetch(`${url}metrics`)).text()).matchAll(/^tessera_sandbox_tenant_slots\{[^}]*\} (\d+)$/gm)].reduce((sum, [, slots]) => sum + Number(slots), 0);
    await until(async () => (await slotsHeld()) + registry.pool.queueSize >= 95);
    t.equal(registry.pool.queueSize, 0, 'none waits in the component\'s queue');
    await warmIsolates(registry, 2);
    t.equal(registry.pool.stats().warmIsolates, 2, 'built on both hosts');
  });
  t.same(codes, Array(96).fill('EXECUTION_TIMEOUT'));
});
