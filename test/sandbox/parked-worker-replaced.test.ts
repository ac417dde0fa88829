import t from 'tap';
import { fixture, request } from '../helpers/start-registry';
import { BYSTANDER } from './bystander';
import { startChildRegistry } from './child-registry';

const TIMEOUT_MS = 1000;

t.test('an allocation V8 cannot survive, made on the fast path, costs its worker: SANDBOX_CRASHED, a new worker serves', async (t) => {
  // One worker, so that the warm-up and the blow-up meet on the same thread. In a child process:
  // the parked thread keeps the process from exiting normally.
  const url = await startChildRegistry(t, [fixture('hostile-after-warm-up'), BYSTANDER], { TESSERA_TEST_WORKERS: '1', TESSERA_TEST_TIMEOUT_MS: String(TIMEOUT_MS) });

  for (let i = 0; i < 10; i++) t.equal((await request(`${url}hostile-after-warm-up`)).status, 200, `calm answer ${i}`);
  const sent = performance.now();
  const { status, body } = await request(`${url}hostile-after-warm-up?turn=blow-up`);
  const elapsed = performance.now() - sent;
  t.equal(status, 500);
  t.same(body, {
    code: 'SANDBOX_CRASHED',
    error: 'The sandbox running the component stopped unexpectedly; retry the request.',
    name: 'hostile-after-warm-up',
    requestVersion: '',
  });
  // Given up 2 s past the time limit, looked at every 250 ms.
  t.ok(elapsed > TIMEOUT_MS && elapsed < TIMEOUT_MS + 4000, `answered after ${Math.round(elapsed)} ms`);

  const bystander = await request(`${url}hello-world?name=After`);
  t.equal(bystander.status, 200, 'the replacement worker renders');
  t.match(bystander.body.html, '<p class="hello-world">Hello, After!</p>');
  const calm = await request(`${url}hostile-after-warm-up`);
  t.equal(calm.status, 200, 'the hostile version renders again, on a new isolate');
  const metrics = (await request(`${url}metrics`)).text;
  t.match(metrics, /^tessera_sandbox_isolates_lost_total 1$/m, 'the lost isolate is counted');
  t.match(metrics, /^tessera_sandbox_worker_restarts_total 1$/m, 'the worker was replaced');
  t.match(metrics, /^tessera_sandbox_workers 1$/m, 'one worker serves');
});
