import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { until, warmIsolates } from './wait-for';

/** The never-settling execution's time limit: a crash its front did not notice would be answered past it. */
const LIMIT_MS = 5000;

t.test('a host that dies mid-execution: its requests answer SANDBOX_CRASHED at once, the pool replaces it', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-never-settles'), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 1;
    config.limits.executionTimeoutMs = LIMIT_MS;
  });
  await bystanderRenders(t, started, 'Before', 'before the crash');
  const [pid] = started.registry.pool.hostProcessIds();

  const inFlight = request(`${started.url}hostile-never-settles`);
  // Wait until the host has built the hostile component's isolate: its execution is then running.
  await warmIsolates(started.registry, 2);
  const killed = performance.now();
  process.kill(pid!, 'SIGKILL');

  const { status, body } = await inFlight;
  const answeredAfterKill = performance.now() - killed;
  t.equal(status, 500);
  t.same(body, {
    code: 'SANDBOX_CRASHED',
    error: 'The sandbox running the component stopped unexpectedly; retry the request.',
    name: 'hostile-never-settles',
    requestVersion: '',
  });
  // Its execution began a moment before the kill: a crash the front missed would be answered once the execution is overdue, past its limit.
  t.ok(answeredAfterKill < LIMIT_MS, `answered when the host died, not at the time limit (${Math.round(answeredAfterKill)} ms after)`);

  await until(() => started.registry.pool.stats().hosts === 1);
  await bystanderRenders(t, started, 'After', 'the replacement host renders');
  const [replacement] = started.registry.pool.hostProcessIds();
  t.not(replacement, pid, 'a new host process serves');

  const metrics = (await request(`${started.url}metrics`)).text;
  t.match(metrics, /^tessera_sandbox_host_restarts_total\{reason="exited"\} 1$/m, 'the restart is counted');
  t.match(metrics, /^tessera_renders_total\{component="hostile-never-settles",version="1.0.0",tenant="default",outcome="SANDBOX_CRASHED"\} 1$/m, 'and so is the crashed render');
});
