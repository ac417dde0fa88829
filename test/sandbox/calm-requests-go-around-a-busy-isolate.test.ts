import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';
import { hostsUp, until } from './wait-for';

// Beside busy loops, one of its calm requests was seen held behind the spin for its whole time
// limit, in a part of the suite and in a process of its own: the other host, building the component
// for the first calm requests, was reported busy too, and the next went to the host running fewer of
// them, the spinning one. A build is no longer busy (calm-requests-wait-for-a-build-not-behind-a-spin).

const NAME = 'hostile-busy-after-nested';
const CALM = '<p>calm</p>';

t.test("calm requests of a component whose isolate spins go to another host, not behind the spin", async (t) => {
  const started = await startRegistry(t, [fixture(NAME), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    // The calm requests beside the spin build the component on the other host while the spin holds a
    // CPU: well under a second on a quiet machine, past five seconds (all three 504) on one whose
    // other CPU four test processes shared. The spin ends when its client leaves, not at this limit.
    config.limits.executionTimeoutMs = 30_000;
  });
  const { registry, url } = started;
  await hostsUp(registry, 2);
  const calm = async () => {
    const answer = await request(`${url}${NAME}`);
    return [answer.status, answer.body.html];
  };
  t.same(await calm(), [200, CALM], 'calm before');

  let spinEnded = false;
  const client = new AbortController();
  // Ended either way: answered (504 at its limit) or given up by its client below.
  const spinning = request(`${url}${NAME}?spin=true`, { signal: client.signal })
    .catch(() => undefined)
    .finally(() => {
      spinEnded = true;
    });
  // Its host reports the isolate busy within a fifth of a second.
  await until(async () => valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_sandbox_busy_components') === 1);
  const beside = await Promise.all([calm(), calm(), calm()]);
  t.notOk(spinEnded, 'the calm requests were answered while the spin went on');
  t.same(beside, [
    [200, CALM],
    [200, CALM],
    [200, CALM],
  ]);
  await bystanderRenders(t, started, 'During', 'another tenant during the spin');

  t.notOk(spinEnded, 'the spin went on throughout');

  // Its client leaves: its isolate, which nothing else shares, goes, and with it the spin.
  const left = performance.now();
  client.abort();
  await spinning;
  await until(async () => valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_sandbox_busy_components') === 0);
  const stopped = performance.now() - left;
  // Far below the 30 s limit, which would stop it too, and far above what a busy machine takes.
  t.ok(stopped < 15_000, `the spin stopped ${Math.round(stopped)} ms after its client left`);
  t.same(await calm(), [200, CALM], 'calm after');
});
