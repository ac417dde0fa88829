import t from 'tap';
import { fixture, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { BYSTANDER, hostileBesideBystander } from './bystander';

t.test('tenant code cannot park an isolate thread on Atomics.wait', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-atomics-wait'), BYSTANDER], TWO_HOSTS);
  const elapsed = await hostileBesideBystander(t, started, 'hostile-atomics-wait', {
    status: 500,
    body: {
      code: 'GENERIC_ERROR',
      error: 'Component "hostile-atomics-wait" failed: Atomics.wait is not a function',
      name: 'hostile-atomics-wait',
      requestVersion: '',
    },
  });
  t.ok(elapsed < 2000, `refused at once (${Math.round(elapsed)} ms), not at the time limit`);
});
