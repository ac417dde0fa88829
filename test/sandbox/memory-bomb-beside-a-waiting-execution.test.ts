import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

const MEMORY = {
  code: 'MEMORY_LIMIT_EXCEEDED',
  error: 'The component passed its sandbox memory limit; its sandbox was discarded.',
  name: 'hostile-memory-beside-waiter',
  requestVersion: '',
};

/** The waiting execution's time limit: it started after `sent`, so answered at its limit it would come this long after it at the earliest. */
const LIMIT_MS = 10_000;

t.test('an isolate lost to the memory limit answers at once the executions of it waiting on nested renders', async (t) => {
  // isolated-vm disposes an isolate past its memory limit by itself: an execution parked on a nested
  // render in it was never answered, and held its slot for good.
  const { url } = await startRegistry(t, [fixture('hostile-memory-beside-waiter'), fixture('hostile-sync-loop')], (config) => {
    config.limits.memoryMb = 16;
    config.limits.executionTimeoutMs = LIMIT_MS;
    // One host, so the two requests share the component's isolate (with more, one that looks busy
    // may send the second elsewhere).
    config.limits.sandboxHosts = 1;
  });
  const sent = performance.now();
  const waiting = request(`${url}hostile-memory-beside-waiter`, { signal: AbortSignal.timeout(20_000) });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const bomb = await request(`${url}hostile-memory-beside-waiter?grow=true`);
  t.same([bomb.status, bomb.body], [500, MEMORY], 'the request that grew');
  const waited = await waiting;
  t.same([waited.status, waited.body], [500, MEMORY], 'the request waiting in the same isolate');
  const took = performance.now() - sent;
  t.ok(took < LIMIT_MS, `answered when its isolate went, not at the time limit (${Math.round(took)} ms)`);
  const again = await request(`${url}hostile-memory-beside-waiter?grow=true`);
  t.same([again.status, again.body], [500, MEMORY], 'the component gets a new isolate, which meets the limit again');
});
