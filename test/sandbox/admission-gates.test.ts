import t from 'tap';
import { AdmissionGate } from '../../src/sandbox/admission-gate';
import { ComponentGates } from '../../src/sandbox/component-gates';

const HOT = { component: 'hot', tenant: 'acme' };
const CALM = { component: 'calm', tenant: 'acme' };

/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

/** Longer than any of these tests: only the last one waits it out. */
const WAIT_MS = 60_000;
const OVERLOADED = { name: 'TesseraError', code: 'OVERLOADED', status: 503, message: 'The registry is at capacity; retry later.' };

t.test('a free slot is taken at once, a full gate queues in order, a full queue is OVERLOADED', async (t) => {
  const gate = new AdmissionGate(2, 2);
  t.equal(gate.enter(WAIT_MS), undefined, 'first slot: no promise');
  t.equal(gate.enter(WAIT_MS), undefined, 'second slot: no promise');
  const third = gate.enter(WAIT_MS);
  const fourth = gate.enter(WAIT_MS);
  t.ok(third instanceof Promise && fourth instanceof Promise, 'past the capacity, a promise');
  t.equal(gate.queued, 2);
  t.throws(() => gate.enter(WAIT_MS), OVERLOADED, 'past the queue, OVERLOADED at once');
  t.equal(gate.queued, 2, 'the refused one is not queued');

  t.notOk(await settled(third!), 'the third waits');
  gate.leave();
  t.ok(await settled(third!), 'a freed slot goes to the oldest waiting');
  t.notOk(await settled(fourth!), 'the fourth still waits');
  gate.leave();
  t.ok(await settled(fourth!));
  t.equal(gate.queued, 0);

  gate.leave();
  gate.leave();
  t.equal(gate.enter(WAIT_MS), undefined, 'with every slot freed, the next is taken at once');
});

t.test('each component has its own slots and queue; a refused entry leaves nothing behind', async (t) => {
  const gates = new ComponentGates(1, 1);
  t.equal(gates.enter(HOT, WAIT_MS), undefined);
  const waiting = gates.enter(HOT, WAIT_MS);
  t.ok(waiting instanceof Promise, 'the hot component queues behind its own limit');
  t.throws(() => gates.enter(HOT, WAIT_MS), OVERLOADED, 'its queue is full');
  t.equal(gates.enter(CALM, WAIT_MS), undefined, 'another component is not held up by it');
  t.equal(gates.queued, 1);

  gates.leave(HOT);
  t.ok(await settled(waiting!), 'the queued one gets the slot');
  gates.leave(HOT);
  gates.leave(CALM);
  t.equal(gates.queued, 0);
  t.equal(gates.enter(HOT, WAIT_MS), undefined, 'after all left, the component starts afresh');
});

t.test("a moved name's two owners have a gate each: one holding every slot never queues the other", async (t) => {
  const gates = new ComponentGates(1, 1);
  const former = { component: 'widget', tenant: 'labs' };
  const next = { component: 'widget', tenant: 'shop' };
  t.equal(gates.enter(former, WAIT_MS), undefined);
  const queued = gates.enter(former, WAIT_MS)!;
  t.ok(queued instanceof Promise, "the former owner's next execution queues behind its own limit");
  t.equal(gates.enter(next, WAIT_MS), undefined, "the new owner's takes a slot of its own at once");
  t.throws(() => gates.enterNow(former), { code: 'OVERLOADED', message: 'Component "widget" runs as many executions at once as it may: a nested render of it found no free slot; retry later.' }, "a nested render of the former owner's finds no free slot");
  gates.leave(next);
  t.doesNotThrow(() => gates.enterNow(next), "one of the new owner's does");
  t.equal(gates.queued, 1, "only the former owner's execution waits");
  gates.leave(former);
  t.ok(await settled(queued), "the former owner's own freed slot goes to it");
});

t.test('a wait for a slot ends OVERLOADED after its bound, and the one who gave up leaves the queue', async (t) => {
  const gate = new AdmissionGate(1, 5);
  t.equal(gate.enter(WAIT_MS), undefined);
  const patient = gate.enter(WAIT_MS);
  const hasty = gate.enter(50);
  const third = gate.enter(WAIT_MS);
  await t.rejects(hasty!, { code: 'OVERLOADED', status: 503, message: 'The registry is at capacity: no execution slot was free within the execution time limit; retry later.' });
  t.equal(gate.queued, 2, 'only the two still waiting are queued');
  gate.leave();
  t.ok(await settled(patient!), 'the slot goes to the oldest still waiting');
  t.notOk(await settled(third!));
  gate.leave();
  t.ok(await settled(third!), 'then to the next: the one who gave up was skipped');

  const gates = new ComponentGates(1, 5);
  t.equal(gates.enter(HOT, WAIT_MS), undefined);
  await t.rejects(gates.enter(HOT, 20)!, { code: 'OVERLOADED' });
  t.equal(gates.queued, 0, 'the component queue is empty again');
  gates.leave(HOT);
  t.equal(gates.enter(HOT, WAIT_MS), undefined, 'its slot is free: the one who gave up never held it');
});
