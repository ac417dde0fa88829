import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';
import { hostsUp, until } from './wait-for';

const NAME = 'hostile-slow-build';

// Top-level code working 1.7 s and a handler working 1.7 s under a 3 s limit: the host's deadline
// counts from when it receives the execution, building the version included, and agrees with the
// front's, so the host answers in time and is never declared overdue and recycled.
t.test("building a version counts in its first execution's deadline: EXECUTION_TIMEOUT in time, the host kept, the next execution answered", async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture(NAME)), ofTenant('ada', BYSTANDER)], (config) => {
    config.limits.executionTimeoutMs = 3000;
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  const hosts = registry.pool.hostProcessIds();

  const first = await request(`${url}${NAME}`);
  t.equal(first.status, 504);
  t.same(first.body, { code: 'EXECUTION_TIMEOUT', error: 'The component passed its execution time limit.', name: NAME, requestVersion: '' });
  await bystanderRenders(t, started, 'After', 'another tenant right after');
  // Past the front's overdue margin (2 s) and a heartbeat: nothing was left unanswered.
  await sleep(2600);
  t.same(registry.pool.hostProcessIds(), hosts, 'the host was not recycled');
  t.equal(valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_sandbox_host_restarts_total', { reason: 'overdue' }), 0);

  const second = await request(`${url}${NAME}`);
  t.equal(second.status, 200, 'the version was built once: the next execution has its whole limit');
  t.equal(second.body.html, '<p>built and answered</p>');

  // Its tenant is charged what its isolate ran (wall-clock spins: less CPU than 5 s on a busy machine, never none).
  const cpu = async (tenant: string) => valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_tenant_cpu_seconds_total', { tenant });
  await until(async () => (await cpu('mallory')) >= 0.5);
  // Its cold render (an isolate and a build) read over 0.25 s beside a second suite; charged one of
  // mallory's spins (1.7 s of work), it would read over 1 s on a machine with a CPU to give it.
  const bystander = await cpu('ada');
  t.ok(bystander < 1, `the bystander's tenant is charged its one render only (${bystander} s)`);
});
