import t from 'tap';
import { batchOfFrame, frameOf } from '../../src/sandbox/framed-socket';
import { KnownPlans, SentPlans } from '../../src/sandbox/leased-plans';
import { localCall } from '../../src/pipeline/nested-call';
import type { NestedLease, NestedPlan } from '../../src/sandbox/protocol';

const plan = (id: number, name = `child-${id}`): NestedPlan => ({
  id,
  name,
  requested: '1.x',
  version: '1.0.0',
  key: `${name}@1.0.0#k`,
  component: name,
  templateKey: 'k',
  container: true,
  renderInfo: true,
  parameters: { mood: { type: 'string', enum: ['calm', 'glad'] } },
  timeoutMs: 5000,
});

/** The lease as the host reads it: written into a frame by the front and parsed back. */
function across(lease: NestedLease): NestedLease {
  const frame = frameOf([{ t: 'execute', id: 1, key: 'parent@1.0.0#k', component: 'parent', input: '{}', timeoutMs: 5000, lease }]);
  return (batchOfFrame(frame[0]!) as Array<{ lease: NestedLease }>)[0]!.lease;
}

/** A front's connection to a host: the leases it sends, the plans the host reads from them. */
function connection(max?: number) {
  const sent = new SentPlans(max);
  const known = new KnownPlans(max);
  return {
    send(plans: NestedPlan[]) {
      const lease = across(sent.lease({ plans, maxChars: 100, boundChars: 200 }));
      return { lease, read: known.read(lease) };
    },
    known,
  };
}

t.test('a plan goes whole once over a connection, then by its id, and reads back the same', async (t) => {
  const link = connection();
  const [a, b] = [plan(1), plan(2)];
  const first = link.send([a, b]);
  t.same(first.lease, { plans: [a, b], maxChars: 100, boundChars: 200 }, 'whole, the first time');
  t.same(first.read, [a, b]);
  for (let round = 0; round < 3; round++) {
    const again = link.send([a, b]);
    t.same(again.lease.plans, [1, 2], 'by id afterwards');
    t.same(again.read, [a, b], 'the host reads the plans it was sent');
  }
  // Its child resolves to another version: a new plan, with an id of its own, goes whole and is used.
  const newer = { ...plan(3, 'child-1'), version: '1.1.0', key: 'child-1@1.1.0#k' };
  const changed = link.send([newer, b]);
  t.same(changed.lease.plans, [newer, 2]);
  t.same(changed.read, [newer, b]);
  t.equal(localCall(changed.read, [false, false], JSON.stringify({ name: 'child-1', version: '1.x', baseUrl: 'http://r/' }))?.plan, 0, 'a call of the child matches the new plan');
  t.same(link.send([newer]).lease.plans, [3]);
});

t.test('another connection (a new or replaced host) is sent every plan whole again', async (t) => {
  const sender = new SentPlans();
  const a = plan(1);
  sender.lease({ plans: [a], maxChars: 1, boundChars: 1 });
  t.same(sender.lease({ plans: [a], maxChars: 1, boundChars: 1 }).plans, [1]);
  t.same(new SentPlans().lease({ plans: [a], maxChars: 1, boundChars: 1 }).plans, [a]);
});

t.test('when the front\'s record is full, both sides start over at the same lease', async (t) => {
  const max = 4;
  const link = connection(max);
  const plans = Array.from({ length: 9 }, (_, at) => plan(at + 1));
  t.same(link.send(plans.slice(0, 3)).lease.plans, plans.slice(0, 3));
  t.same(link.send(plans.slice(0, 3)).lease.plans, [1, 2, 3]);
  t.same(link.send([plans[3]!]).lease.plans, [plans[3]], 'the fourth fills the record');
  t.same(link.send(plans.slice(0, 4)).read, plans.slice(0, 4), 'all four known on both sides');

  // One more passes the bound: the record starts over, the host empties its table first, and the lease's plans all go whole.
  const over = link.send([plans[0]!, plans[4]!]);
  t.same(over.lease, { plans: [plans[0], plans[4]], forget: true, maxChars: 100, boundChars: 200 });
  t.same(over.read, [plans[0], plans[4]]);
  t.same(link.send([plans[0]!, plans[4]!]).lease.plans, [1, 5], 'those two by id again');
  t.same(link.send([plans[1]!]).lease.plans, [plans[1]], 'one from before the reset goes whole again');
  t.same(link.send([plans[0]!, plans[1]!, plans[4]!]).read, [plans[0], plans[1], plans[4]], 'the host holds what the front records');

  // Over and over, the two stay in step: every plan read back is the one sent.
  for (let round = 0; round < 20; round++) {
    const some = [plans[round % 9]!, plans[(round * 5 + 2) % 9]!, plans[(round * 7 + 1) % 9]!].filter((one, at, all) => all.indexOf(one) === at);
    t.same(link.send(some).read, some, `round ${round}`);
  }
});

t.test('a plan the host does not hold matches no call: the front answers it', async (t) => {
  const known = new KnownPlans();
  const a = plan(1);
  const read = known.read({ plans: [a, 99], maxChars: 1, boundChars: 1 });
  t.same(read, [a, undefined]);
  t.equal(localCall(read, [false, false], JSON.stringify({ name: 'child-99', version: '1.x', baseUrl: 'http://r/' })), undefined);
  t.equal(localCall(read, [false, false], JSON.stringify({ name: 'child-1', version: '1.x', baseUrl: 'http://r/' }))?.plan, 0);
  t.same(known.read({ plans: [1], forget: true, maxChars: 1, boundChars: 1 }), [undefined], 'nothing is held after `forget`');
});

t.test('the host\'s table stays bounded even when a front does not keep in step', async (t) => {
  const known = new KnownPlans(4);
  for (let id = 1; id <= 4; id++) known.read({ plans: [plan(id)], maxChars: 1, boundChars: 1 });
  t.same(known.read({ plans: [1, 2, 3, 4], maxChars: 1, boundChars: 1 }).map((one) => one?.id), [1, 2, 3, 4]);
  known.read({ plans: [plan(5)], maxChars: 1, boundChars: 1 });
  t.same(known.read({ plans: [1, 5], maxChars: 1, boundChars: 1 }).map((one) => one?.id), [undefined, 5], 'a fifth empties the full table');
});
