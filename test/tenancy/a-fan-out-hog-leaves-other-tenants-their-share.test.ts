import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from '../sandbox/bystander';
import { hostsUp, until } from '../sandbox/wait-for';

const HOG = 'hostile-fan-out-hog';
const SLOT_BOUND = 'A request may hold at most 64 execution slots at a time across its nested renders.';
const COMPONENT_FULL = 'Component "hostile-never-settles" runs as many executions at once as it may: a nested render of it found no free slot; retry later.';
const TIMED_OUT = 'The component passed its execution time limit.';
const ASKED_TOO_MANY = 'A component may ask for at most 100 nested renders in one execution.';

// Three requests each fan out to 150 children that never answer. Before tenants existed at run
// time, nested renders skipped every per-component gate and took ~300 slots: every other tenant's
// render waited for the time limit. Now each request holds at most maxSlotsPerRequest slots, the
// children pass their component's gate, and another tenant starts at once within its share.
t.test("a tenant's nested fan-out holds a bounded number of slots, and another tenant renders at once beside it", async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture(HOG)), ofTenant('mallory', fixture('hostile-never-settles')), ofTenant('ada', BYSTANDER)], (config) => {
    config.limits.executionTimeoutMs = 4000;
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  await bystanderRenders(t, started, 'Before', 'another tenant before the hog');

  let hogsDone = false;
  const hogs = Promise.all([1, 2, 3].map(() => request(`${url}${HOG}`))).finally(() => (hogsDone = true));
  const slotsOf = (tenant: string) => [...registry.pool.slotsByTenant()].find(([name]) => name === tenant)?.[1] ?? 0;
  await until(() => slotsOf('mallory') >= 64 || hogsDone);
  t.ok(slotsOf('mallory') <= 3 * 64, `the hog holds at most three requests' worth of slots (${slotsOf('mallory')})`);

  await bystanderRenders(t, started, 'Concurrent', 'another tenant while the hog holds its slots');
  t.notOk(hogsDone, 'the other tenant was answered while the hog still held its slots');

  const answers = await hogs;
  const outcomes: Record<string, number> = {};
  for (const answer of answers) {
    // The hog itself may pass its own limit waiting on its children, or answer their failures first.
    if (answer.status === 504) {
      t.same(answer.body, { code: 'EXECUTION_TIMEOUT', error: TIMED_OUT, name: HOG, requestVersion: '' });
      continue;
    }
    t.equal(answer.status, 200);
    for (const [outcome, count] of Object.entries(JSON.parse(/^<p>(.*)<\/p>$/.exec(answer.body.html)![1]!) as Record<string, number>)) {
      outcomes[outcome] = (outcomes[outcome] ?? 0) + count;
    }
  }
  for (const outcome of Object.keys(outcomes)) t.ok([SLOT_BOUND, COMPONENT_FULL, TIMED_OUT, ASKED_TOO_MANY].includes(outcome), `a child's outcome is one of the bounds: ${outcome}`);
  t.ok((outcomes[TIMED_OUT] ?? 0) <= 64, 'no more children ran than their component may run at once');
  await bystanderRenders(t, started, 'After', 'another tenant after the hog');
  await until(() => slotsOf('mallory') === 0);
});
