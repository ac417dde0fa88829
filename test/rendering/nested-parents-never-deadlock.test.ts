import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('more concurrent nested parents than execution slots are all answered', async (t) => {
  // Two workers running one outside execution each: every slot is taken by a parent waiting on its children.
  const { url } = await startRegistry(t, [fixture('rendering-child'), fixture('rendering-child-v2'), fixture('rendering-nested-parent')], (config) => {
    config.limits.workers = 2;
    config.limits.concurrentPerWorker = 1;
    config.limits.executionTimeoutMs = 4000;
  });
  const answers = await Promise.all(Array.from({ length: 6 }, () => request(`${url}rendering-nested-parent?case=many-promise`)));
  t.same(
    answers.map((answer) => [answer.status, answer.body.html ?? answer.body.error]),
    Array.from({ length: 6 }, () => [200, '<section><i>v2 {} trace=shared</i> | <i>v1 {} trace=shared</i></section>']),
  );
});
