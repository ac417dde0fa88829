import t from 'tap';
import { TenantShares } from '../../src/sandbox/tenant-shares';

const WAIT_MS = 10_000;
const settled = async (promise: Promise<void>): Promise<boolean> => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => {},
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};
/**
 * Frees every held slot in turn, each going to a waiter, until none is held: the waits a test leaves
 * behind end now, instead of holding the test's process until their bound.
 */
const endWaits = (shares: TenantShares): void => {
  for (let held = [...shares.held()]; held.length > 0; held = [...shares.held()]) {
    for (const [tenant, slots] of held) for (let slot = 0; slot < slots; slot++) shares.leave(tenant);
  }
};

t.test('an idle pool lets one tenant take every slot; another tenant then starts at once, up to its share', async (t) => {
  const shares = new TenantShares(4, 10, 2, () => 1);
  for (let slot = 0; slot < 4; slot++) t.equal(shares.enter('mallory', WAIT_MS), undefined, `mallory takes slot ${slot + 1}`);
  t.equal(shares.runningOf('mallory'), 4);
  // Mallory borrowed everything; ada's guaranteed share is half of the 4 slots.
  t.equal(shares.enter('ada', WAIT_MS), undefined, 'ada starts at once, beyond the capacity mallory borrowed');
  t.equal(shares.enter('ada', WAIT_MS), undefined, 'and again, up to its share');
  const adaWaits = shares.enter('ada', WAIT_MS)!;
  t.ok(adaWaits instanceof Promise, 'past its share, ada waits');
  const malloryWaits = shares.enter('mallory', WAIT_MS)!;
  t.ok(malloryWaits instanceof Promise, 'mallory, past its share, waits too');
  t.throws(() => shares.enterNow('mallory'), { code: 'OVERLOADED' }, "mallory's nested render fails at once instead of waiting");

  shares.leave('ada');
  t.ok(await settled(adaWaits), 'a slot ada frees goes to ada, under its share, though the pool is past its capacity');
  t.notOk(await settled(malloryWaits), 'mallory, past its share, keeps waiting');
  shares.leave('mallory');
  shares.leave('mallory');
  t.notOk(await settled(malloryWaits), 'still: the pool is at capacity and mallory holds its share');
  shares.leave('mallory');
  t.ok(await settled(malloryWaits), 'a slot under the capacity goes to the waiting tenant');
  t.equal(shares.queued, 0);
});

t.test('a freed slot goes to the waiting tenant holding the fewest slots for its weight, not to the one that waited longest', async (t) => {
  const shares = new TenantShares(2, 10, 0, () => 1);
  t.equal(shares.enter('a', WAIT_MS), undefined);
  t.equal(shares.enter('a', WAIT_MS), undefined);
  t.equal(shares.enter('b', WAIT_MS), undefined, "b starts within its share (one of two slots)");
  const bWaits = shares.enter('b', WAIT_MS)!;
  const aWaits = shares.enter('a', WAIT_MS)!;
  shares.leave('a');
  t.notOk(await settled(bWaits), 'the pool is at capacity and each holds its share: no one starts');
  shares.leave('a');
  t.ok(await settled(aWaits), 'a holds none now, b one: a goes first, though b waited longer');
  t.notOk(await settled(bWaits));
  endWaits(shares);
  await bWaits;
});

t.test("weights set each tenant's share", async (t) => {
  const shares = new TenantShares(6, 10, 0, (tenant) => (tenant === 'checkout' ? 2 : 1));
  for (let slot = 0; slot < 6; slot++) t.equal(shares.enter('search', WAIT_MS), undefined);
  // checkout weighs 2 of 3: its share is 4 of the 6 slots.
  for (let slot = 0; slot < 4; slot++) t.equal(shares.enter('checkout', WAIT_MS), undefined, `checkout slot ${slot + 1} within its share`);
  const fifth = shares.enter('checkout', WAIT_MS);
  t.equal(shares.queued, 1, 'the fifth waits');
  t.throws(() => shares.enterNow('checkout'), {
    code: 'OVERLOADED',
    message: 'The registry is at capacity for tenant "checkout": a nested render found no free execution slot within its share; retry later.',
  });
  endWaits(shares);
  await fifth;
});

t.test('a wait ends OVERLOADED after its bound, and a full queue refuses at once; idle tenants are forgotten', async (t) => {
  const shares = new TenantShares(1, 1, 0, () => 1);
  t.equal(shares.enter('a', WAIT_MS), undefined);
  await t.rejects(shares.enter('a', 20)!, { code: 'OVERLOADED', message: 'The registry is at capacity: no execution slot was free within the execution time limit; retry later.' });
  const waiting = shares.enter('a', WAIT_MS)!;
  t.throws(() => shares.enter('a', WAIT_MS), { code: 'OVERLOADED' }, 'the queue holds one');
  shares.leave('a');
  t.ok(await settled(waiting));
  shares.leave('a');
  t.same([...shares.held()], [], 'no tenant holds a slot');
  t.equal(shares.queued, 0);
});

t.test("a full queue turns away the newest waiter of the tenant holding most of it, never another tenant's", async (t) => {
  const shares = new TenantShares(2, 2, 0, () => 1);
  t.equal(shares.enter('mallory', WAIT_MS), undefined);
  t.equal(shares.enter('mallory', WAIT_MS), undefined);
  const first = shares.enter('mallory', WAIT_MS)!;
  const second = shares.enter('mallory', WAIT_MS)!;
  t.throws(() => shares.enter('mallory', WAIT_MS), { code: 'OVERLOADED', message: 'The registry is at capacity; retry later.' }, "mallory's own request finds the queue full");
  t.equal(shares.enter('ada', WAIT_MS), undefined, 'ada starts within its share');
  const ada = shares.enter('ada', WAIT_MS)!;
  await t.rejects(
    second,
    { code: 'OVERLOADED', message: 'The registry is at capacity and its queue is full: this tenant holds more of it than others; retry later.' },
    "ada's next request, past its share, takes the place of mallory's newest",
  );
  t.equal(shares.queued, 2);
  t.throws(() => shares.enter('ada', WAIT_MS), { code: 'OVERLOADED', message: 'The registry is at capacity; retry later.' }, 'once both hold as much, the newcomer is turned away');
  shares.leave('mallory');
  shares.leave('mallory');
  t.ok(await settled(first), 'a freed slot goes to the least served tenant: mallory holds none now, ada one');
  t.notOk(await settled(ada));
  shares.leave('mallory');
  t.ok(await settled(ada), 'then to ada');
});
