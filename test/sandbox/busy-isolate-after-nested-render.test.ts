import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { hostsRunningWithoutABreak, hostsUp } from './wait-for';

const LIMIT_MS = 1000;
const NAME = 'hostile-busy-after-nested';

t.test('a loop after an awaited nested render, with calm requests beside it: coded answers, nobody else touched, nothing left running', async (t) => {
  const started = await startRegistry(t, [fixture(NAME), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 1; // every execution meets the busy isolate's host
    config.limits.executionTimeoutMs = LIMIT_MS;
  });
  const { url, registry } = started;
  await hostsUp(registry, 1);
  for (let i = 0; i < 8; i++) t.equal((await request(`${url}${NAME}`)).status, 200, `calm answer ${i}`);

  const spinning = request(`${url}${NAME}?spin=true`);
  const calm = [request(`${url}${NAME}`), request(`${url}${NAME}`)];
  await bystanderRenders(t, started, 'During', 'another tenant during the spin');
  const spun = await spinning;
  t.equal(spun.status, 504, 'the spinning request times out');
  t.same(spun.body, { code: 'EXECUTION_TIMEOUT', error: 'The component passed its execution time limit.', name: NAME, requestVersion: '' });
  // The calm requests shared the spinning isolate: they answer by the limit, coded, never a crash.
  for (const [index, answer] of (await Promise.all(calm)).entries()) {
    t.ok(answer.status === 200 || (answer.status === 504 && answer.body.code === 'EXECUTION_TIMEOUT'), `calm request ${index} beside it: ${answer.status}`);
  }
  for (let i = 0; i < 3; i++) t.equal((await request(`${url}${NAME}`)).status, 200, `calm answer after the spin ${i}`);

  await bystanderRenders(t, started, 'After', 'another tenant after the spin');
  t.same(await hostsRunningWithoutABreak(registry, 1000), [], 'no thread of the host runs code afterwards');
});
