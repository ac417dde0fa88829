import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';
import { hostsUp, until } from './wait-for';

const NAME = 'hostile-busy-after-nested';
const CALM = '<p>calm</p>';

t.test("calm requests of a component whose isolate spins go to another host, not behind the spin", async (t) => {
  const started = await startRegistry(t, [fixture(NAME), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    // The calm requests beside the spin build the component on the other host: well under a second
    // on a quiet machine, and past two seconds (all three 504) once on a machine running four test
    // processes besides. The spin takes a CPU till its limit, which must outlast them.
    config.limits.executionTimeoutMs = 5000;
  });
  const { registry, url } = started;
  await hostsUp(registry, 2);
  const calm = async () => {
    const answer = await request(`${url}${NAME}`);
    return [answer.status, answer.body.html];
  };
  t.same(await calm(), [200, CALM], 'calm before');

  let spinEnded = false;
  const spinning = request(`${url}${NAME}?spin=true`).then((answer) => {
    spinEnded = true;
    return answer;
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

  const spun = await spinning;
  t.same([spun.status, spun.body.code], [504, 'EXECUTION_TIMEOUT'], 'the spinning request ends at its limit');
  t.same(await calm(), [200, CALM], 'calm after');
});
