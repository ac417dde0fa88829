import t from 'tap';
import { fixture, request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { hostsUp } from '../sandbox/wait-for';
import { BYSTANDER, BYSTANDER_HTML, bystander, prober, PROBER, proberChild } from './lease-helpers';

const MAX_EXECUTIONS = 3;

// A lease takes an execution of the request's budget for each child ahead, before its parent's own
// execution is counted, and a child it cannot hold still counts the execution it tried to take.
// A request that needs three executions (a page, the prober it renders, the one child that one asks
// for) fits a budget of three through the front; it must not fail because the prober once asked
// for its child at two version expressions, and both were leased ahead of it.
t.test("a lease never takes the executions its parent's request needs to run", async (t) => {
  const { registry, url } = await startRegistry(
    t,
    [prober('mallory'), proberChild('mallory'), { dir: fixture('lease-embedder'), tenant: 'mallory', name: 'prober-root' }, BYSTANDER('ada')],
    (config) => {
      TWO_HOSTS(config);
      config.limits.maxExecutionsPerRequest = MAX_EXECUTIONS;
    },
  );
  await hostsUp(registry, 2);
  // The prober asks for its child at '' and at '1.x' (one request each: two executions, then three).
  for (const version of ['', '1.x']) {
    const learnt = await request(`${url}${PROBER}?case=only&version=${version}`);
    t.equal(learnt.status, 200, `learnt at "${version}"`);
    t.match(learnt.body.html, /^<section><oc-component href="[^"]+\/prober-child[^"]*\?who=only/, `the child answered at "${version}"`);
  }

  // Three executions: the page, the prober, its child at ''.
  const query = encodeURIComponent(JSON.stringify({ case: 'only', version: '' }));
  for (let round = 1; round <= 2; round++) {
    const page = await request(`${url}prober-root?name=${PROBER}&query=${query}`);
    t.equal(page.status, 200, `round ${round}`);
    t.match(page.body.html, /^<main><section><oc-component href="[^"]+\/prober-child\?who=only&amp;loud=false" /, `round ${round}: the page shows the prober, which shows its child`);
    t.notMatch(page.body.html, /Error\(/, `round ${round}: no render of the three was refused`);
  }

  const other = await bystander(url);
  t.equal(other.status, 200, "another tenant's component answers");
  t.match(other.html, BYSTANDER_HTML);
});
