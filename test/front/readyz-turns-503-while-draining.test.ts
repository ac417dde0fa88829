import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

const SLOW_MS = 800;
/**
 * How long the registry keeps its listener once draining: the requests below that must still be
 * served (/readyz's 503, /livez) are sent within it. With 200 ms, a machine running two test suites
 * at once let it pass before /livez was sent (connection reset).
 */
const DRAIN_DELAY_MS = 2000;
const DRAIN_TIMEOUT_MS = 20_000;

t.test('/livez answers while the process runs; /readyz is 200 when ready and 503 NOT_READY once draining, while in-flight requests finish', async (t) => {
  const { url, registry } = await startRegistry(t, [fixture('health-slow')], (config) => {
    config.plugins = [{ name: 'slowDown', description: 'answers late', func: () => new Promise((resolve) => setTimeout(() => resolve('late'), SLOW_MS)) }];
    config.limits.drainDelayMs = DRAIN_DELAY_MS;
    config.limits.drainTimeoutMs = DRAIN_TIMEOUT_MS;
  });

  const live = await request(`${url}livez`);
  t.equal(live.status, 200);
  t.same(live.body, { status: 'live' });
  let ready = await request(`${url}readyz`);
  while (ready.status === 503) {
    t.same(ready.body.code, 'NOT_READY', 'starting: the sandbox hosts do not answer yet');
    await new Promise((resolve) => setTimeout(resolve, 50));
    ready = await request(`${url}readyz`);
  }
  t.equal(ready.status, 200);
  t.same(ready.body, { status: 'ready' });

  const inFlight = request(`${url}health-slow`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  const drained = registry.drain();

  const draining = await request(`${url}readyz`);
  t.equal(draining.status, 503);
  t.same(draining.body, {
    code: 'NOT_READY',
    error: 'This registry is draining: it finishes the requests it holds and stops; send the request to another replica.',
    name: '',
    requestVersion: '',
  });
  t.equal(draining.headers.get('retry-after'), '1');
  t.equal(draining.headers.get('connection'), 'close', 'kept-alive connections are let go');
  t.equal((await request(`${url}livez`)).status, 200, 'still live while draining');

  const finished = await inFlight;
  t.equal(finished.status, 200, 'the request in flight when draining began is answered');
  t.match(finished.body.html, /<p>late<\/p>/);
  t.equal(await drained, true, 'draining finished within its bound');
  t.ok(Date.now() - started >= DRAIN_DELAY_MS - 50, 'the listener was kept for the drain delay');
  await t.rejects(fetch(`${url}livez`), 'the listener is closed');
});
