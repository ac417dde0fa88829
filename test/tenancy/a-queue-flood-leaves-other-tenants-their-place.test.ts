import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from '../sandbox/bystander';
import { hostsUp, until } from '../sandbox/wait-for';

// Mallory's requests that never answer take every slot and fill the whole queue. A full queue used
// to refuse the next request of any tenant; it now turns away Mallory's newest waiter instead.
t.test("one tenant filling the queue never leaves another tenant's requests refused", async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture('hostile-never-settles')), ofTenant('ada', BYSTANDER)], (config) => {
    config.limits.concurrentPerHost = 4;
    config.limits.maxQueue = 10;
    // Ada's requests are admitted a moment after the queue fills; the flood then waits this out twice.
    config.limits.executionTimeoutMs = 2000;
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  const flood = Array.from({ length: 14 }, () => request(`${url}hostile-never-settles`));
  await until(() => registry.pool.queueSize === 10);

  // Ada's share of the 4 slots is 2: two start at once, the third takes the place of Mallory's newest waiter.
  await Promise.all(['One', 'Two', 'Three'].map((who) => bystanderRenders(t, started, who, `ada's request ${who} beside the full queue`)));
  const answers = await Promise.all(flood);
  t.ok(
    answers.some(
      ({ status, body }) =>
        status === 503 && body.code === 'OVERLOADED' && body.error === 'The registry is at capacity and its queue is full: this tenant holds more of it than others; retry later.',
    ),
    "one of mallory's waiters made room",
  );
  t.ok(answers.every(({ status }) => status === 503 || status === 504), "mallory's requests end at a limit");
});
