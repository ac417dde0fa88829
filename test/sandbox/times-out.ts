import { fixture, startRegistry } from '../helpers/start-registry';
import { theFilesTest } from '../helpers/the-files-test';
import { BYSTANDER, hostileBesideBystander } from './bystander';

const LIMIT_MS = 300;

/**
 * The whole test of a hostile component that never answers in time: 504 EXECUTION_TIMEOUT at the
 * limit while the bystander renders beside it, then the same again on the rebuilt isolate.
 */
export function timesOutBesideBystander(what: string, hostile: string): void {
  theFilesTest().test(`${what} answers 504 EXECUTION_TIMEOUT and spares the bystander`, async (t) => {
    const started = await startRegistry(t, [fixture(hostile), BYSTANDER], (config) => {
      config.limits.executionTimeoutMs = LIMIT_MS;
    });
    const expected = {
      status: 504,
      body: { code: 'EXECUTION_TIMEOUT', error: 'The component passed its execution time limit.', name: hostile, requestVersion: '' },
    };
    const first = await hostileBesideBystander(t, started, hostile, expected, { outlasts: true });
    t.ok(first >= LIMIT_MS && first < 10 * LIMIT_MS, `stopped at the limit (${Math.round(first)} ms)`);
    // The discarded isolate is rebuilt for the next request, which is stopped the same way.
    await hostileBesideBystander(t, started, hostile, expected, { outlasts: true });
  });
}
