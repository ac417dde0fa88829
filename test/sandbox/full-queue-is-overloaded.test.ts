import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { until, warmIsolates } from './wait-for';

/** How long the slot is held (the execution time limit), and how long after its holder the queued request comes. */
const HELD_MS = 8000;
const QUEUED_AFTER_MS = 3000;

t.test('past the bounded execution queue the registry answers 503 OVERLOADED with Retry-After', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-never-settles'), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 1;
    config.limits.concurrentPerHost = 1; // one execution at a time in the whole pool
    config.limits.maxQueue = 1;
    // The slot is held until this limit: long enough that the refused request and the metrics read
    // before it arrive while it is still held, however busy the machine.
    config.limits.executionTimeoutMs = HELD_MS;
  });
  const { registry, url } = started;
  await bystanderRenders(t, started, 'Before', 'before the queue fills');

  const running = request(`${url}hostile-never-settles`);
  await warmIsolates(registry, 2);
  // The queued request waits for the slot at most the same limit from when it is queued: queued
  // this much later, it outwaits the slot's holder and the holder's teardown. Queued at once, beside
  // a busy loop per CPU, its wait ended first (503).
  await new Promise((resolve) => setTimeout(resolve, QUEUED_AFTER_MS));
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

t.test('a request waits for an execution slot at most the execution time limit, then is told to retry', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-never-settles'), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 1;
    config.limits.concurrentPerHost = 1;
    config.limits.maxQueue = 5;
    // The first holds the slot until this limit: long enough that the second and third are queued
    // behind it however busy the machine (at 1 s, beside a second suite, the first had ended before
    // the second arrived, which then never waited).
    config.limits.executionTimeoutMs = 4000;
  });
  const { registry, url } = started;
  await bystanderRenders(t, started, 'Before', 'before the queue fills');

  const finished: string[] = [];
  const track = (name: string, pending: ReturnType<typeof request>) => pending.then((answer) => (finished.push(name), answer));
  const first = track('first', request(`${url}hostile-never-settles`));
  await warmIsolates(registry, 2);
  // Queued behind the first; it takes the slot when the first times out, and holds it a second more.
  const second = track('second', request(`${url}hostile-never-settles`));
  await until(() => registry.pool.queueSize === 1);
  const third = track('third', request(`${url}hello-world/1.0.0?name=Late`));
  await until(() => registry.pool.queueSize === 2);

  const late = await third;
  t.equal(late.status, 503);
  t.equal(late.headers.get('retry-after'), '1');
  t.same(late.body, {
    code: 'OVERLOADED',
    error: 'The registry is at capacity: no execution slot was free within the execution time limit; retry later.',
    name: 'hello-world',
    requestVersion: '1.0.0',
  });
  t.equal((await first).status, 504);
  t.equal((await second).status, 504, 'the second ran once the first ended');
  t.same(finished, ['first', 'third', 'second'], 'the third was answered while the second still held the slot');
  t.equal(registry.pool.queueSize, 0, 'nothing is left waiting');
  await bystanderRenders(t, started, 'After', 'after the queue drains');
});
