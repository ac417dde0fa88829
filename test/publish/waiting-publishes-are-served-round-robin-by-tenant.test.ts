import t from 'tap';
import { PublishQueue } from '../../src/publish/publish-queue';

/** Everything a queue hands out, in order, until it is empty. */
function drain<T>(queue: PublishQueue<T>): T[] {
  const out: T[] = [];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) out.push(item);
  return out;
}

t.test("one tenant's many uploads wait behind another tenant's turn, not ahead of it", async (t) => {
  const queue = new PublishQueue<string>(() => 1);
  for (const item of ['a1', 'a2', 'a3', 'a4']) queue.push('attacker', item);
  queue.push('bystander', 'b1');
  queue.push('other', 'c1');
  t.equal(queue.size, 6);
  t.same(drain(queue), ['a1', 'b1', 'c1', 'a2', 'a3', 'a4']);
  t.equal(queue.size, 0);
});

t.test('within a tenant, arrival order', async (t) => {
  const queue = new PublishQueue<string>(() => 1);
  queue.push('a', 'a1');
  queue.push('b', 'b1');
  queue.push('a', 'a2');
  queue.push('b', 'b2');
  queue.push('a', 'a3');
  t.same(drain(queue), ['a1', 'b1', 'a2', 'b2', 'a3']);
});

t.test('a tenant takes as many items per turn as its weight; a weight below 1 gathers over turns', async (t) => {
  const weights: Record<string, number> = { heavy: 2, light: 1, slow: 0.5 };
  const queue = new PublishQueue<string>((tenant) => weights[tenant]!);
  for (let n = 1; n <= 6; n++) queue.push('heavy', `h${n}`);
  for (let n = 1; n <= 3; n++) queue.push('light', `l${n}`);
  for (let n = 1; n <= 2; n++) queue.push('slow', `s${n}`);
  t.same(drain(queue), ['h1', 'h2', 'l1', 'h3', 'h4', 'l2', 's1', 'h5', 'h6', 'l3', 's2']);
});

t.test('a weight that is not positive counts as 1', async (t) => {
  const queue = new PublishQueue<string>((tenant) => (tenant === 'zero' ? 0 : -3));
  queue.push('zero', 'z1');
  queue.push('zero', 'z2');
  queue.push('negative', 'n1');
  t.same(drain(queue), ['z1', 'n1', 'z2']);
});

t.test('a tenant that emptied its line joins at the end of the rotation when it comes back', async (t) => {
  const queue = new PublishQueue<string>(() => 1);
  queue.push('a', 'a1');
  queue.push('b', 'b1');
  queue.push('b', 'b2');
  t.equal(queue.shift(), 'a1');
  queue.push('a', 'a2');
  queue.push('c', 'c1');
  t.same(drain(queue), ['b1', 'a2', 'c1', 'b2']);
});
