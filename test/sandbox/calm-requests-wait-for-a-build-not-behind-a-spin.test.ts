import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';
import { hostsUp, until } from './wait-for';

const NAME = 'slow-start-spinner';
const CALM = '<p>calm</p>';

// A host reported a component busy while its isolate was at work without a break for a while: a
// build counted. A calm request went to the other host while the component's home host spun, found
// it building the version (its top-level code takes 1.5 s), busy too, and the next calm request was
// sent to whichever of the two ran fewer of the component's executions: the spinning one, behind
// the spin, until its time limit. A build is no longer "busy": the executions that wait for it would
// wait for it on any host.
t.test('calm requests wait for their version to be built on a calm host, never behind a spin on a busy one', async (t) => {
  const started = await startRegistry(t, [fixture(NAME), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    // The spin ends when its client leaves, not at this limit; the builds take 1.5 s each.
    config.limits.executionTimeoutMs = 30_000;
  });
  const { registry, url } = started;
  await hostsUp(registry, 2);
  const calm = async () => {
    const answer = await request(`${url}${NAME}`);
    return [answer.status, answer.body.html];
  };
  t.same(await calm(), [200, CALM], 'calm on its home host');

  let spinEnded = false;
  const client = new AbortController();
  const spinning = request(`${url}${NAME}?spin=true`, { signal: client.signal })
    .catch(() => undefined)
    .finally(() => (spinEnded = true));
  await until(async () => valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_sandbox_busy_components') === 1);

  // The first goes to the other host, which builds the version; the second comes while it builds.
  const first = calm();
  await new Promise((resolve) => setTimeout(resolve, 600));
  const second = calm();
  t.same(await Promise.all([first, second]), [
    [200, CALM],
    [200, CALM],
  ]);
  t.notOk(spinEnded, 'both were answered while the spin went on');
  await bystanderRenders(t, started, 'During', 'another tenant during the spin');

  client.abort();
  await spinning;
});
