import t from 'tap';
import { request, startRegistry } from '../helpers/start-registry';
import { openTail, SHOP_TOKEN, twoTenants, TWO_TENANTS_COMPONENTS } from './tail-helpers';

/** Each execution logs 50 lines of about 930 characters: an event of about 48 KB. */
const ITEM = { name: 'shop-logger', parameters: { lines: 50, chars: 900 } };
const BATCH = 50;
/** Enough to fill any loopback socket's buffers many times over. */
const MOST_BATCHES = 40;

const droppedCounted = (metrics: string): number => Number(/^tessera_tail_events_dropped_total\{tenant="shop"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);

t.test('a tail never read loses events, counted and told in its stream, while every render is answered', async (t) => {
  const { url } = await startRegistry(t, TWO_TENANTS_COMPONENTS, (config) => {
    twoTenants(config);
    config.limits.tailBufferBytes = 64 * 1024;
  });
  const tail = await openTail(url, SHOP_TOKEN);
  t.teardown(() => tail.close());
  await tail.waitFor((event) => event.type === 'open');
  tail.pause();

  let executions = 0;
  const failed: number[] = [];
  for (let batch = 0; batch < MOST_BATCHES; batch++) {
    const answer = await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ components: Array(BATCH).fill(ITEM) }) });
    t.equal(answer.status, 200);
    failed.push(...(answer.body as Array<{ status: number }>).map((item) => item.status).filter((status) => status !== 200));
    executions += BATCH;
    if (droppedCounted((await request(`${url}metrics`)).text) > 0) break;
  }
  t.same(failed, [], `${executions} executions, every one answered 200 while the tail was not read`);
  const dropped = droppedCounted((await request(`${url}metrics`)).text);
  t.ok(dropped > 0, `the stream dropped ${dropped} events`);

  tail.resume();
  const told = (): number => tail.events.filter((event) => event.type === 'dropped').reduce((sum, event) => sum + (event.data.count as number), 0);
  const received = (): number => tail.events.filter((event) => event.type === 'execution').length;
  await tail.waitFor(() => received() + told() === executions);
  t.equal(told(), dropped, 'the stream tells exactly what it dropped');
  t.equal(received() + told(), executions, 'every execution was either sent or told dropped');
  t.ok(tail.events.every((event) => event.type !== 'dropped' || event.data.count > 0), 'each notice counts its losses');

  // The stream goes on once read again.
  await request(`${url}shop-logger?lines=1`);
  await tail.waitFor((event) => event.type === 'execution' && event.data.console.length === 1);
  t.pass('events flow again');
});
