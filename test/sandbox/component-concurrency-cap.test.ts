import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { until, warmIsolates, hostsUp } from './wait-for';

/**
 * The hot executions' limit: they must still hold their slots while the third is queued, the fourth
 * refused and the bystander rendered, however busy the machine (at 1 s they had sometimes ended
 * before the third was sent, which then never waited).
 */
const LIMIT_MS = 4000;

t.test('one hot component runs at most its cap; its excess waits in its own queue, then OVERLOADED; others are not held up', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-never-settles'), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    config.limits.maxConcurrentPerComponent = 2;
    config.limits.maxQueue = 1;
    config.limits.executionTimeoutMs = LIMIT_MS;
  });
  const { registry, url } = started;
  await hostsUp(registry, 2);
  await bystanderRenders(t, started, 'Before', 'before the hot component');

  let hotAnswered = 0;
  const hotRequest = () => request(`${url}hostile-never-settles`).finally(() => hotAnswered++);
  const hot = [hotRequest(), hotRequest()];
  const hotStarted = performance.now();
  await warmIsolates(registry, 2);
  hot.push(hotRequest());
  await until(() => registry.pool.queueSize === 1);

  const refused = await request(`${url}hostile-never-settles`);
  t.equal(refused.status, 503, 'past its cap and its queue, the hot component is refused');
  t.equal(refused.headers.get('retry-after'), '1');
  t.same(refused.body, { code: 'OVERLOADED', error: 'The registry is at capacity; retry later.', name: 'hostile-never-settles', requestVersion: '' });

  await bystanderRenders(t, started, 'Meanwhile', 'another component renders at once, not behind the hot one');
  t.equal(hotAnswered, 0, 'while the hot executions still hold their slots');

  const answers = await Promise.all(hot);
  const timedOut = { code: 'EXECUTION_TIMEOUT', error: 'The component passed its execution time limit.', name: 'hostile-never-settles', requestVersion: '' };
  t.same(
    answers.map(({ status, body }) => ({ status, body })),
    [504, 504, 504].map((status) => ({ status, body: timedOut })),
    'the two running and the queued one each end at the time limit',
  );
  t.ok(performance.now() - hotStarted >= 2 * LIMIT_MS, 'the queued one started only when a running one ended');
});
