import t from 'tap';
import { request, startRegistry } from '../helpers/start-registry';
import { hostsUp, until } from '../sandbox/wait-for';
import { BYSTANDER, BYSTANDER_HTML, bystander, prober, PROBER, proberChild } from './lease-helpers';

// The parent holds a lease of prober-child@1.0.1 (the only slot of prober-child's gate, at a cap of
// one). While it spins in its own code, 1.0.1 is unpublished: the host revokes the plan. Then the
// parent asks for prober-child@1.0.0, which no plan covers: the lease ends, and what it never ran
// must go back before that render is admitted (docs/guides/authors/nested-rendering.md: "a lease never costs a
// render through the front an execution, a slot or answer bytes"). A revoked plan never ran either.
t.test('a plan revoked while its lease is held gives back its slot when the lease ends', async (t) => {
  const { registry, url } = await startRegistry(t, [prober('mallory'), proberChild('mallory'), proberChild('mallory', '1.0.1'), BYSTANDER('ada')], (config) => {
    config.limits.maxConcurrentPerComponent = 1;
  });
  await hostsUp(registry, 1);
  // Learnt through the front, then leased (and run beside the parent).
  for (let round = 1; round <= 2; round++) {
    const learnt = await request(`${url}${PROBER}?case=spin&version=1.0.1&ms=0`);
    t.match(learnt.body.html, /^<section>waited \| <oc-component [^>]*data-version="1\.0\.1">/, `round ${round}: the child at 1.0.1`);
  }
  // Without an unpublish, a render the lease does not cover is admitted at the cap of one.
  const control = await request(`${url}${PROBER}?case=spin&version=1.0.0&ms=0`);
  t.match(control.body.html, /^<section>waited \| <oc-component [^>]*data-version="1\.0\.0">/, 'the lease ends and gives its slot back: the child at 1.0.0 renders');

  const late = request(`${url}${PROBER}?case=spin&version=1.0.0&ms=1200`);
  await new Promise((resolve) => setTimeout(resolve, 400));
  await registry.catalog.unpublish('prober-child', '1.0.1', { date: new Date().toISOString(), tenant: null });
  const answer = await late;
  t.equal(answer.status, 200);
  t.match(
    answer.body.html,
    /^<section>waited \| <oc-component [^>]*data-version="1\.0\.0">/,
    'the revoked plan never ran: its slot is given back when the lease ends, and the child at 1.0.0 is admitted',
  );
  t.notMatch(answer.body.html, /OVERLOADED|as many executions at once/, 'no slot of the lease stays held past its end');

  const slots = () => [...registry.pool.slotsByTenant()].reduce((sum, [, held]) => sum + held, 0);
  await until(() => slots() === 0);
  const child = await request(`${url}prober-child?who=cap`);
  t.equal(child.status, 200, 'the child renders at its cap afterwards');
  const other = await bystander(url);
  t.equal(other.status, 200, "another tenant's component answers");
  t.match(other.html, BYSTANDER_HTML);
});
