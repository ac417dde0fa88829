import t from 'tap';
import { fixture, ofTenant, request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { hostsUp, until } from '../sandbox/wait-for';
import { BYSTANDER, BYSTANDER_HTML, bystander, prober, PROBER, proberChild } from './lease-helpers';

// Leases end in every way a parent can: its result counted past the nested bound (the request then
// fails), its request refused for executions, its client gone while it waits. Afterwards no tenant
// may hold a slot, and each component renders at its cap of one at a time.
t.test("a lease's slots are given back however its parent's request ends", async (t) => {
  const { registry, url } = await startRegistry(
    t,
    [prober('mallory'), proberChild('mallory'), ofTenant('carol', fixture('lease-spinner')), BYSTANDER('ada')],
    (config) => {
      TWO_HOSTS(config);
      config.limits.maxConcurrentPerComponent = 1;
      config.limits.maxNestedBytesPerRequest = 350;
    },
  );
  await hostsUp(registry, 2);
  const slots = () => [...registry.pool.slotsByTenant()].reduce((sum, [, held]) => sum + held, 0);
  for (let round = 1; round <= 3; round++) {
    await request(`${url}${PROBER}?case=twice`);
    await request(`${url}${PROBER}?case=late&ms=0`);
    // The client goes away while the parent waits with its lease.
    const gone = request(`${url}${PROBER}?case=late&ms=800`, { signal: AbortSignal.timeout(200) }).catch((error: Error) => error.name);
    t.equal(await gone, 'TimeoutError', `round ${round}: the client left`);
  }
  await until(() => slots() === 0);
  t.equal(slots(), 0, 'no tenant holds a slot once every request ended');
  const child = await request(`${url}prober-child?who=cap`);
  t.equal(child.status, 200, 'the leased child renders at its cap of one');
  const parent = await request(`${url}${PROBER}?case=only`);
  t.equal(parent.status, 200, 'the parent renders, and leases its child, at the cap');
  t.match(parent.body.html, /^<section><oc-component href="[^"]+\/prober-child\?who=only/);
  const other = await bystander(url);
  t.equal(other.status, 200, "another tenant's component answers");
  t.match(other.html, BYSTANDER_HTML);
});
