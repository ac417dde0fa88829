import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, hostileBesideBystander } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';
import { until } from './wait-for';

// Well above the time the bomb needs on a loaded machine: the memory watchdog, not the clock, must stop it.
const LIMIT_MS = 30_000;

t.test('memory taken inside one built-in call is stopped at twice the limit: MEMORY_LIMIT_EXCEEDED long before the time limit, and the host is recycled', async (t) => {
  // `new Array(1e8).fill(0)`: V8 checks neither the heap limit nor termination inside `fill`.
  const started = await startRegistry(t, [ofTenant('mallory', fixture('hostile-unstoppable-builtin')), ofTenant('ada', BYSTANDER)], (config) => {
    config.limits.sandboxHosts = 2;
    config.limits.memoryMb = 64;
    config.limits.executionTimeoutMs = LIMIT_MS;
  });
  const hostsBefore = started.registry.pool.hostProcessIds();
  const elapsed = await hostileBesideBystander(
    t,
    started,
    'hostile-unstoppable-builtin',
    { status: 500, body: { code: 'MEMORY_LIMIT_EXCEEDED', error: 'The component passed its sandbox memory limit; its sandbox was discarded.', name: 'hostile-unstoppable-builtin', requestVersion: '' } },
  );
  t.ok(elapsed < LIMIT_MS, `answered before the time limit, which a copy left running would reach (${Math.round(elapsed)} ms)`);
  // Its thread is still inside `fill`: the isolate counts as lost, and its host is replaced, which ends that thread.
  await until(() => started.registry.pool.hostProcessIds().some((pid) => !hostsBefore.includes(pid)));
  const metrics = parseMetrics((await request(`${started.url}metrics`)).text);
  t.equal(valueOf(metrics, 'tessera_sandbox_isolates_lost_total', { tenant: 'mallory' }), 1, 'the lost isolate counts against its tenant');
  t.equal(valueOf(metrics, 'tessera_sandbox_isolates_lost_total', { tenant: 'ada' }), 0, 'not against the bystander');
  t.equal(valueOf(metrics, 'tessera_sandbox_host_restarts_total', { reason: 'isolate-lost' }), 1, 'the host was recycled');
  t.equal(valueOf(metrics, 'tessera_memory_limit_kills_total', { component: 'hostile-unstoppable-builtin', tenant: 'mallory' }), 1);
});
