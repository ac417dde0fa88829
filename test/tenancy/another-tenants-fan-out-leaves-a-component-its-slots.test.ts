import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { hostsUp, until } from '../sandbox/wait-for';

const FILLER = 'hostile-gate-filler';
const SLOW = 'health-slow';
const CAPACITY = 4;
const DELAY_MS = 600;

// Mallory's component renders ada's slow component four times at once, where ada's component may run
// four executions at a time: without a bound on what another tenant's requests hold, the fan-out takes
// every slot and ada's own visitors wait behind it. One other tenant's requests hold at most a quarter
// of a component's slots (its other renders are refused at once, OVERLOADED), all others' together
// half, and ada's visitor is admitted while the fan-out still runs.
t.test("another tenant's fan-out holds at most a quarter of a component's slots; its own visitors are admitted beside it", async (t) => {
  const { registry, url } = await startRegistry(t, [ofTenant('mallory', fixture(FILLER)), ofTenant('ada', fixture(SLOW))], (config) => {
    config.limits.maxConcurrentPerComponent = CAPACITY;
    config.plugins = [{ name: 'slowDown', description: `answers after ${DELAY_MS} ms`, func: () => new Promise((resolve) => setTimeout(() => resolve('late'), DELAY_MS)) }];
  });
  await hostsUp(registry, 1);
  t.equal((await request(`${url}${SLOW}`)).status, 200, "ada's component is warm");

  const filling = request(`${url}${FILLER}?child=${SLOW}&count=${CAPACITY}`);
  const slotsOf = (tenant: string) => [...registry.pool.slotsByTenant()].find(([name]) => name === tenant)?.[1] ?? 0;
  // The filler and the child it was let run.
  await until(() => slotsOf('mallory') >= 1 + CAPACITY / 4);
  const own = request(`${url}${SLOW}`);
  await until(() => slotsOf('ada') === 1);
  t.equal(registry.pool.queueSize, 0, "ada's visitor was admitted at once, not queued behind the fan-out");
  const [filled, answered] = await Promise.all([filling, own]);
  t.equal(answered.status, 200, "ada's visitor is answered");
  const refusal = `Component "${SLOW}" runs as many executions for the requests of tenant "mallory" as one other tenant's requests may hold (${CAPACITY / 4} of its ${CAPACITY}): a nested render of it found no free slot; retry later.`;
  t.same(JSON.parse(filled.body.html.replace(/^<p>|<\/p>$/g, '').replace(/&quot;/g, '"')), { rendered: CAPACITY / 4, [refusal]: (3 * CAPACITY) / 4 }, 'a quarter of the fan-out ran, the rest was refused at once');
});
