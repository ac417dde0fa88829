import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { hostsRunningWithoutABreak, hostsUp } from './wait-for';

const NAME = 'hostile-spin-after-return';

t.test('a loop queued behind its own answer is stopped: coded answer, nothing left running', async (t) => {
  const started = await startRegistry(t, [fixture(NAME), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    config.limits.executionTimeoutMs = 1000;
  });
  await hostsUp(started.registry, 2);
  const { status, body } = await request(`${started.url}${NAME}`);
  t.same(
    { status, body },
    { status: 504, body: { code: 'EXECUTION_TIMEOUT', error: 'The component passed its execution time limit.', name: NAME, requestVersion: '' } },
    'the microtasks of an execution belong to it, under its time limit',
  );
  await bystanderRenders(t, started, 'After', 'another tenant afterwards');
  t.same(await hostsRunningWithoutABreak(started.registry, 1000), [], 'no thread of the hosts runs code afterwards');
});
