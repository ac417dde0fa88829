import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';
import { hostsUp, until } from './wait-for';

const CALM = '<p>calm</p>';

/** What the helper below asks of a test. */
interface TestOf {
  teardown(fn: () => unknown): void;
  same(found: unknown, wanted: unknown, message: string): unknown;
}

/**
 * A registry of two hosts where `name` (calm, or spinning with `?spin=true`) was rendered calm on its
 * home host, then spins there: once its host reported it busy, the spin's state and how to end it.
 */
async function spinningOnItsHome(t: TestOf, name: string) {
  const started = await startRegistry(t, [fixture(name), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    // The calm requests beside the spin build the component on the other host while the spin holds a
    // CPU: well under a second on a quiet machine, past five seconds (all three 504) on one whose
    // other CPU four test processes shared. The spin ends when its client leaves, not at this limit.
    config.limits.executionTimeoutMs = 30_000;
  });
  const { registry, url } = started;
  await hostsUp(registry, 2);
  const calm = async () => {
    const answer = await request(`${url}${name}`);
    return [answer.status, answer.body.html];
  };
  t.same(await calm(), [200, CALM], 'calm before, on its home host');
  const busyComponents = async () => valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_sandbox_busy_components');

  let ended = false;
  const client = new AbortController();
  // Ended either way: answered (504 at its limit) or given up by its client.
  const spinning = request(`${url}${name}?spin=true`, { signal: client.signal })
    .catch(() => undefined)
    .finally(() => (ended = true));
  // Its host reports the isolate busy within a fifth of a second.
  await until(async () => (await busyComponents()) === 1);
  return {
    started,
    calm,
    busyComponents,
    spinEnded: () => ended,
    stopSpin: async () => {
      client.abort();
      await spinning;
    },
  };
}

t.test('calm requests of a component whose isolate spins go to another host, not behind the spin', async (t) => {
  const { started, calm, busyComponents, spinEnded, stopSpin } = await spinningOnItsHome(t, 'hostile-busy-after-nested');
  const beside = await Promise.all([calm(), calm(), calm()]);
  t.notOk(spinEnded(), 'the calm requests were answered while the spin went on');
  t.same(beside, [
    [200, CALM],
    [200, CALM],
    [200, CALM],
  ]);
  await bystanderRenders(t, started, 'During', 'another tenant during the spin');
  t.notOk(spinEnded(), 'the spin went on throughout');

  // Its client leaves: its isolate, which nothing else shares, goes, and with it the spin.
  const left = performance.now();
  await stopSpin();
  await until(async () => (await busyComponents()) === 0);
  const stopped = performance.now() - left;
  // Far below the 30 s limit, which would stop it too, and far above what a busy machine takes.
  t.ok(stopped < 15_000, `the spin stopped ${Math.round(stopped)} ms after its client left`);
  t.same(await calm(), [200, CALM], 'calm after');
});

// A host reported a component busy once its isolate had been at work without a break for a while,
// a build included. Beside busy loops, one of the calm requests above was seen held behind the spin
// for its whole time limit: the other host, building the version for the first calm requests (slow
// on a loaded machine), was reported busy too, and the next went to the host running fewer of the
// component's executions, the spinning one. A build is not busy: the executions that wait for it
// would wait for it on any host. Here the build takes 1.5 s on any machine.
t.test('calm requests wait for their version to be built on a calm host, never behind a spin on a busy one', async (t) => {
  const { started, calm, spinEnded, stopSpin } = await spinningOnItsHome(t, 'slow-start-spinner');
  // The first goes to the other host, which builds the version; the second comes while it builds.
  const first = calm();
  await new Promise((resolve) => setTimeout(resolve, 600));
  const second = calm();
  t.same(await Promise.all([first, second]), [
    [200, CALM],
    [200, CALM],
  ]);
  t.notOk(spinEnded(), 'both were answered while the spin went on');
  await bystanderRenders(t, started, 'During', 'another tenant during the spin');
  await stopSpin();
});
