import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { until, warmIsolates } from './wait-for';

t.test('past the bounded execution queue the registry answers 503 OVERLOADED with Retry-After', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-never-settles'), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 1;
    config.limits.concurrentPerHost = 1; // one execution at a time in the whole pool
    config.limits.maxQueue = 1;
    config.limits.executionTimeoutMs = 1000;
  });
  const { registry, url } = started;
  await bystanderRenders(t, started, 'Before', 'before the queue fills');

  const running = request(`${url}hostile-never-settles`);
  await warmIsolates(registry, 2);
  const queued = request(`${url}hello-world/1.0.0?name=Queued`);
  await until(() => registry.pool.queueSize === 1);
  const depth = (await request(`${url}metrics`)).text;
  t.match(depth, /^tessera_sandbox_queue_depth 1$/m, 'the metrics show the waiting execution');

  const refused = await request(`${url}hello-world/1.0.0?name=Refused`);
  t.equal(refused.status, 503);
  t.equal(refused.headers.get('retry-after'), '1');
  t.same(refused.body, { code: 'OVERLOADED', error: 'The registry is at capacity; retry later.', name: 'hello-world', requestVersion: '1.0.0' });

  t.equal((await running).status, 504, 'the execution holding the slot ends at its time limit');
  const served = await queued;
  t.equal(served.status, 200, 'the queued request is served once the slot frees');
  t.match(served.body.html, /Hello, Queued!/);
  await bystanderRenders(t, started, 'After', 'after the queue drains');
});
