import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { hostsUp, until } from '../sandbox/wait-for';

const FILLER = 'hostile-gate-filler';
const SLOW = 'health-slow';
const CAPACITY = 4;
const DELAY_MS = 800;

// Two tenants (or one team holding two) each fan out to ada's slow component. Were the bound on
// other tenants' requests counted per tenant only, each would take its share and together every
// slot: ada's own visitor would wait in the queue behind them. What other tenants' requests hold
// together leaves the component's own visitors half its slots.
t.test("two other tenants' fan-outs together leave a component's own visitors a slot", async (t) => {
  const { registry, url } = await startRegistry(
    t,
    [ofTenant('mallory', fixture(FILLER)), { dir: fixture(FILLER), tenant: 'eve', name: 'gate-filler-two' }, ofTenant('ada', fixture(SLOW))],
    (config) => {
      config.limits.maxConcurrentPerComponent = CAPACITY;
      config.plugins = [{ name: 'slowDown', description: `answers after ${DELAY_MS} ms`, func: () => new Promise((resolve) => setTimeout(() => resolve('late'), DELAY_MS)) }];
    },
  );
  await hostsUp(registry, 1);
  t.equal((await request(`${url}${SLOW}`)).status, 200, "ada's component is warm");

  const slotsOf = (tenant: string) => [...registry.pool.slotsByTenant()].find(([name]) => name === tenant)?.[1] ?? 0;
  const fillers = [request(`${url}${FILLER}?child=${SLOW}&count=${CAPACITY}`), request(`${url}gate-filler-two?child=${SLOW}&count=${CAPACITY}`)];
  // Each filler and the child it was let run (a quarter of the slots each, half together).
  await until(() => slotsOf('mallory') >= 1 + CAPACITY / 4 && slotsOf('eve') >= 1 + CAPACITY / 4);
  const own = request(`${url}${SLOW}`);
  // Admitted (a slot held) or queued, however long the machine takes to get it there.
  await until(() => slotsOf('ada') === 1 || registry.pool.queueSize > 0);
  t.equal(registry.pool.queueSize, 0, "ada's visitor was admitted at once, not queued behind the other tenants' fan-outs");
  t.equal(slotsOf('ada'), 1, "ada's visitor holds a slot while the fan-outs run");
  const [answered] = await Promise.all([own, ...fillers]);
  t.equal(answered.status, 200, "ada's visitor is answered");
});
