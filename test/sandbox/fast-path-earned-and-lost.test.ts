import t from 'tap';
import { fixture, request, startRegistry, type StartedRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { until, workersUp } from './wait-for';

interface Test {
  equal(found: unknown, wanted: unknown, message: string): unknown;
  same(found: unknown, wanted: unknown, message: string): unknown;
}

const TIMEOUT_MS = 1000;
const TIMED_OUT = {
  code: 'EXECUTION_TIMEOUT',
  error: 'The component passed its execution time limit.',
  name: 'hostile-after-warm-up',
  requestVersion: '',
};

/**
 * Requests the hostile component spinning, then, once `spinning()` resolves, the bystander;
 * answers how long the bystander took.
 */
async function spinBesideBystander(t: Test, started: StartedRegistry, who: string, spinning: () => Promise<void>): Promise<{ bystanderMs: number; spinMs: number }> {
  const sent = performance.now();
  const spin = request(`${started.url}hostile-after-warm-up?turn=spin`).then((answer) => ({ answer, ms: performance.now() - sent }));
  await spinning();
  const bystanderSent = performance.now();
  await bystanderRenders(t, started, who, `bystander beside a spin (${who})`);
  const bystanderMs = performance.now() - bystanderSent;
  const { answer, ms } = await spin;
  t.equal(answer.status, 504, `${who}: the spin is stopped at the time limit`);
  t.same(answer.body, TIMED_OUT, `${who}: the spin's answer`);
  return { bystanderMs, spinMs: ms };
}

t.test('a version earns the fast path by answering quickly, and loses it for good when it passes its time limit', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-after-warm-up'), BYSTANDER], (config) => {
    config.limits.workers = 1;
    config.limits.executionTimeoutMs = TIMEOUT_MS;
  });
  await workersUp(started.registry, 1);
  for (let i = 0; i < 10; i++) {
    const { status, body } = await request(`${started.url}hostile-after-warm-up`);
    t.equal(status, 200, `calm answer ${i}`);
    t.equal(body.html, '<p>calm</p>');
  }

  const { pool } = started.registry;
  const calls = pool.fastPathExecutions;
  // Without the fast path the rest would test nothing (and the wait below would never end).
  if (!t.ok(calls > 0, `the calm answers earned the fast path (${calls} executions on it)`)) return;

  // On the fast path the spin holds the one worker's thread; the bystander, sent once it does, answers only when the limit stopped it.
  const first = await spinBesideBystander(t, started, 'Held', () => until(() => pool.fastPathExecutions > calls));
  t.ok(first.bystanderMs > TIMEOUT_MS / 2, `the bystander waited for the spin (${Math.round(first.bystanderMs)} ms, spin ${Math.round(first.spinMs)} ms)`);

  // The version lost the fast path: its next spin runs on isolated-vm's threads and the bystander answers at once.
  const second = await spinBesideBystander(t, started, 'Free', () => new Promise((resolve) => setTimeout(resolve, 100)));
  t.ok(second.bystanderMs < TIMEOUT_MS / 2, `the bystander did not wait (${Math.round(second.bystanderMs)} ms)`);

  const { status, body } = await request(`${started.url}hostile-after-warm-up`);
  t.equal(status, 200, 'the version still renders');
  t.equal(body.html, '<p>calm</p>');
});
