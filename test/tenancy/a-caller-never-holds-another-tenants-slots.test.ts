import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { hostsUp, until } from '../sandbox/wait-for';

const HOARDER = 'hostile-lease-hoarder';
const HOARDERS = 4;

// A lease holds its children's slots for the whole of its parent's execution, used or not. A tenant
// whose component once asked for another tenant's component would, leased, hold that component's
// gate all along: here every slot of it, while it only waits. Only the paying tenant's own children
// are leased; another tenant's go through the front and hold a slot only while they run.
t.test("a caller's leases never hold another tenant's component slots", async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture(HOARDER)), ofTenant('ada', fixture('leased-child'))], (config) => {
    config.limits.maxConcurrentPerComponent = HOARDERS;
    config.limits.executionTimeoutMs = 4000;
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  const learnt = await request(`${url}${HOARDER}?learn=true`);
  t.equal(learnt.status, 200);
  t.match(learnt.body.html, /^<p><oc-component href="[^"]+\/leased-child\?who=world&amp;loud=false" /, 'the hoarder asked for the child once, through the front');

  let hoardersDone = false;
  const hoarders = Promise.all(Array.from({ length: HOARDERS }, () => request(`${url}${HOARDER}`))).finally(() => (hoardersDone = true));
  const slotsOf = (tenant: string) => [...registry.pool.slotsByTenant()].find(([name]) => name === tenant)?.[1] ?? 0;
  await until(() => slotsOf('mallory') >= HOARDERS || hoardersDone);
  t.equal(slotsOf('mallory'), HOARDERS, 'the hoarders hold their own slots, and none for their children');

  const own = await request(`${url}leased-child?who=Ada`);
  t.equal(own.status, 200, "the child's own tenant renders it while the hoarders wait");
  t.notOk(hoardersDone, 'answered before any hoarder let go of anything');
  for (const answer of await hoarders) t.same([answer.status, answer.body.code], [504, 'EXECUTION_TIMEOUT']);
});
