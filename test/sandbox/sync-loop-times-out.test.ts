import t from 'tap';
import { fixture, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, hostileBesideBystander } from './bystander';

t.test('a synchronous infinite loop answers 504 EXECUTION_TIMEOUT and spares the bystander', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-sync-loop'), BYSTANDER], (config) => {
    config.limits.executionTimeoutMs = 300;
  });
  const expected = {
    status: 504,
    body: { code: 'EXECUTION_TIMEOUT', error: 'The component passed its execution time limit.', name: 'hostile-sync-loop', requestVersion: '' },
  };
  const first = await hostileBesideBystander(t, started, 'hostile-sync-loop', expected, { outlasts: true });
  t.ok(first >= 300 && first < 3000, `stopped at the limit (${Math.round(first)} ms)`);
  // The discarded isolate is rebuilt for the next request, which is stopped the same way.
  await hostileBesideBystander(t, started, 'hostile-sync-loop', expected, { outlasts: true });
});
