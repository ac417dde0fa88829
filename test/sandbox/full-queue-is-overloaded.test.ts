import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { until, warmIsolates } from './wait-for';

t.test('past the bounded execution queue the registry answers 503 OVERLOADED with Retry-After', async (t) => {
  // The one slot is held by an execution asleep in a plugin call that the test answers: no time
  // limit is under test, so none is raced (the limit is far beyond the test's own length).
  let pluginCalled = false;
  let release: (value: string) => void = () => {};
  const held = new Promise<string>((resolve) => (release = resolve));
  const started = await startRegistry(t, [fixture('busy-bystander'), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 1;
    config.limits.concurrentPerHost = 1; // one execution at a time in the whole pool
    config.limits.maxQueue = 1;
    config.limits.executionTimeoutMs = 60_000;
    config.plugins = [{ name: 'lookup', description: 'answers when the test says', func: () => ((pluginCalled = true), held) }];
  });
  const { registry, url } = started;
  await bystanderRenders(t, started, 'Before', 'before the queue fills');

  const running = request(`${url}busy-bystander?lookup=true`);
  await until(() => pluginCalled);
  const queued = request(`${url}hello-world/1.0.0?name=Queued`);
  await until(() => registry.pool.queueSize === 1);
  const depth = (await request(`${url}metrics`)).text;
  t.match(depth, /^tessera_sandbox_queue_depth 1$/m, 'the metrics show the waiting execution');

  const refused = await request(`${url}hello-world/1.0.0?name=Refused`);
  t.equal(refused.status, 503);
  t.equal(refused.headers.get('retry-after'), '1');
  t.same(refused.body, { code: 'OVERLOADED', error: 'The registry is at capacity; retry later.', name: 'hello-world', requestVersion: '1.0.0' });
  t.equal(registry.pool.queueSize, 1, 'the refused request took no place in the queue');

  release('at last');
  const holder = await running;
  t.same([holder.status, holder.body.html], [200, '<p>served 1: looked up at last</p>'], 'the execution holding the slot ends when its plugin call is answered');
  const served = await queued;
  t.equal(served.status, 200, 'the queued request is served once the slot frees');
  t.match(served.body.html, /Hello, Queued!/);
  t.equal(registry.pool.queueSize, 0, 'nothing is left waiting');
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
