import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, hostileBesideBystander } from './bystander';
import { until } from './wait-for';

const LIMIT_MS = 1000;

t.test('a built-in V8 cannot interrupt answers EXECUTION_TIMEOUT at the limit, and its host is recycled', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-unstoppable-builtin'), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    config.limits.executionTimeoutMs = LIMIT_MS;
  });
  const hostsBefore = started.registry.pool.hostProcessIds();
  const elapsed = await hostileBesideBystander(
    t,
    started,
    'hostile-unstoppable-builtin',
    { status: 504, body: { code: 'EXECUTION_TIMEOUT', error: 'The component passed its execution time limit.', name: 'hostile-unstoppable-builtin', requestVersion: '' } },
    { outlasts: true },
  );
  t.ok(elapsed >= LIMIT_MS && elapsed < LIMIT_MS + 1500, `answered at the limit (${Math.round(elapsed)} ms)`);
  // Its thread is still busy inside V8: the host is drained and replaced, which ends that thread.
  await until(() => started.registry.pool.hostProcessIds().some((pid) => !hostsBefore.includes(pid)));
  const metrics = (await request(`${started.url}metrics`)).text;
  t.match(metrics, /^tessera_sandbox_host_restarts_total\{reason="isolate-lost"\} 1$/m, 'the host was recycled');
});
