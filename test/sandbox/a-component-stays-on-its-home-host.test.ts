import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { DEMO, request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { hostsUp, warmIsolates } from './wait-for';

/** Every host has reported its warm isolates since the renders: two heartbeats. */
const REPORTED_MS = 1200;

/** `count` renders of hello-world asked for at once; answers their statuses. */
async function rendersAtOnce(url: string, count: number): Promise<number[]> {
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => request(`${url}hello-world?name=Ada${i}`)));
  return answers.map((answer) => answer.status);
}

t.test('a component asked for by fewer than 32 requests at once runs, and stays warm, on its home host only', async (t) => {
  const { registry, url } = await startRegistry(t, [path.join(DEMO, 'hello-world')], TWO_HOSTS);
  await hostsUp(registry, 2);
  // All 24 are under way while the home host builds the component's context: none is sent elsewhere.
  t.same(await rendersAtOnce(url, 24), Array(24).fill(200));
  await warmIsolates(registry, 1);
  await sleep(REPORTED_MS);
  t.equal(registry.pool.stats().warmIsolates, 1, 'one warm isolate: the other host never built the component');
});

t.test('past 32 executions of a component under way on its home host, the next go to another host', async (t) => {
  const { registry, url } = await startRegistry(t, [path.join(DEMO, 'hello-world')], TWO_HOSTS);
  await hostsUp(registry, 2);
  t.same(await rendersAtOnce(url, 48), Array(48).fill(200));
  await warmIsolates(registry, 2);
  t.equal(registry.pool.stats().warmIsolates, 2, 'warm on both hosts');
});
