import t from 'tap';
import { fixture, request, startRegistry, type StartedRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { workersUp } from './wait-for';

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

/** Requests the hostile component spinning while the bystander renders; answers how long the bystander took. */
async function spinBesideBystander(t: Test, started: StartedRegistry, who: string): Promise<{ bystanderMs: number; spinMs: number }> {
  const sent = performance.now();
  const spin = request(`${started.url}hostile-after-warm-up?turn=spin`).then((answer) => ({ answer, ms: performance.now() - sent }));
  // Let the spin reach the worker before the bystander does.
  await new Promise((resolve) => setTimeout(resolve, 100));
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

  // Now on the fast path, the spin holds the one worker's thread: the bystander answers only once the limit stopped it.
  // The bystander comes 100 ms after the spin, so it waits about 900 ms; half the limit leaves room for a late timer.
  const first = await spinBesideBystander(t, started, 'Held');
  t.ok(first.bystanderMs > TIMEOUT_MS / 2, `the bystander waited for the spin (${Math.round(first.bystanderMs)} ms, spin ${Math.round(first.spinMs)} ms)`);

  // The version lost the fast path: its next spin runs on isolated-vm's threads and the bystander answers at once.
  const second = await spinBesideBystander(t, started, 'Free');
  t.ok(second.bystanderMs < TIMEOUT_MS / 2, `the bystander did not wait (${Math.round(second.bystanderMs)} ms)`);

  const { status, body } = await request(`${started.url}hostile-after-warm-up`);
  t.equal(status, 200, 'the version still renders');
  t.equal(body.html, '<p>calm</p>');
});
