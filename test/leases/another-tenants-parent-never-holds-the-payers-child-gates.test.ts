import t from 'tap';
import { fixture, ofTenant, request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { hostsUp, until } from '../sandbox/wait-for';

const HOARDER = 'hostile-lease-hoarder';
const PAGES = 2;

// Only the paying tenant's children are leased, so that no tenant's lease holds another's slots. But
// the parent a lease goes with may itself be another tenant's: ada's page renders mallory's
// component, which once asked for ada's `leased-child` and since only waits. Each of its executions
// in ada's requests would be leased ada's child, holding that child's gate all along: mallory's
// code, waiting, would keep ada's own component from rendering. Through the front, mallory's
// component holds ada's child's gate only while that child runs, which is never.
t.test("another tenant's parent, in the payer's request, holds none of the payer's children's slots", async (t) => {
  const started = await startRegistry(
    t,
    [ofTenant('ada', fixture('lease-embedder')), ofTenant('ada', fixture('leased-child')), ofTenant('mallory', fixture(HOARDER))],
    (config) => {
      TWO_HOSTS(config);
      // Another tenant's requests may hold a quarter of a component's slots: both pages' hoarders run.
      config.limits.maxConcurrentPerComponent = 4 * PAGES;
      config.limits.executionTimeoutMs = 4000;
    },
  );
  const { registry, url } = started;
  await hostsUp(registry, 2);
  const page = (query: Record<string, unknown>) => request(`${url}lease-embedder?name=${HOARDER}&query=${encodeURIComponent(JSON.stringify(query))}`);

  const learnt = await page({ learn: true });
  t.equal(learnt.status, 200);
  t.match(learnt.body.html, /^<main><p><oc-component href="[^"]+\/leased-child\?who=world&amp;loud=false" /, "mallory's component asked for ada's child once, through the front");

  let pagesDone = false;
  const pages = Promise.all(Array.from({ length: PAGES }, () => page({}))).finally(() => (pagesDone = true));
  const slotsOf = (tenant: string) => [...registry.pool.slotsByTenant()].find(([name]) => name === tenant)?.[1] ?? 0;
  // Each page holds its own slot and its call of the hoarder's, both paid by ada.
  await until(() => slotsOf('ada') >= 2 * PAGES || pagesDone);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal(slotsOf('ada'), 2 * PAGES, "ada's requests hold the pages' and the hoarders' slots, none for a child never asked for");

  const own = await request(`${url}leased-child?who=Ada`);
  t.equal(own.status, 200, "ada renders her own component while mallory's waits");
  t.notOk(pagesDone, "answered before any of mallory's waiting executions let go of anything");
  for (const answer of await pages) t.ok([200, 504].includes(answer.status), `a page ends with its time limit (${answer.status})`);
});
