import t from 'tap';
import type { Worker } from 'node:worker_threads';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { warmIsolates } from './wait-for';

t.test('a worker that dies mid-execution: its requests answer SANDBOX_CRASHED at once, the pool replaces it', async (t) => {
  // Every worker thread this process starts: the registry's sandbox workers, as the pool creates them.
  const workers: Worker[] = [];
  const collect = (worker: Worker) => workers.push(worker);
  process.on('worker', collect);
  t.teardown(() => void process.off('worker', collect));

  const started = await startRegistry(t, [fixture('hostile-never-settles'), BYSTANDER], (config) => {
    config.limits.workers = 1;
    config.limits.executionTimeoutMs = 5000;
  });
  await bystanderRenders(t, started, 'Before', 'before the crash');
  t.equal(workers.length, 1, 'one worker runs');

  const sent = performance.now();
  const inFlight = request(`${started.url}hostile-never-settles`);
  // Wait until the worker has built the hostile component's isolate: its execution is then running.
  await warmIsolates(started.registry, 2);
  const killed = performance.now();
  await workers[0]!.terminate();

  const { status, body } = await inFlight;
  const answeredAfterKill = performance.now() - killed;
  t.equal(status, 500);
  t.same(body, {
    code: 'SANDBOX_CRASHED',
    error: 'The sandbox running the component stopped unexpectedly; retry the request.',
    name: 'hostile-never-settles',
    requestVersion: '',
  });
  t.ok(answeredAfterKill < 1000, `answered ${Math.round(answeredAfterKill)} ms after the worker died`);
  t.ok(performance.now() - sent < 5000, 'well within the execution time limit');

  await bystanderRenders(t, started, 'After', 'the replacement worker renders');
  t.equal(workers.length, 2, 'the pool started a replacement worker');
  t.equal(started.registry.pool.threads, 1, 'and runs one worker again');

  const metrics = (await request(`${started.url}metrics`)).text;
  t.match(metrics, /^tessera_sandbox_worker_restarts_total 1$/m, 'the restart is counted');
  t.match(metrics, /^tessera_renders_total\{component="hostile-never-settles",version="1.0.0",outcome="SANDBOX_CRASHED"\} 1$/m, 'and so is the crashed render');
});
