import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from '../sandbox/bystander';
import { hostsUp } from '../sandbox/wait-for';

const KILLER = 'hostile-budget-killer';
const LIMIT_MS = 3000;

// A component spends nearly all of its request's time, then renders another tenant's component
// with the ~400 ms left. The child's deadline used to dispose the callee's whole isolate, with its
// own visitor's legitimate work in it. Now the child alone ends EXECUTION_TIMEOUT for its caller.
t.test("a caller's nearly spent budget ends its child's execution, never the callee's isolate or its other visitors' work", async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture(KILLER)), ofTenant('ada', fixture('slow-worker')), ofTenant('ada', BYSTANDER)], (config) => {
    config.limits.executionTimeoutMs = LIMIT_MS;
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  t.equal((await request(`${url}slow-worker?ms=0`)).body.html, '<p>run 1</p>', 'the callee is warm');

  const killer = request(`${url}${KILLER}?spinMs=2600&childMs=1000`);
  // The callee's own visitor works 1.2 s from about when the killer's child arrives with its ~400 ms.
  await sleep(2300);
  const visitor = await request(`${url}slow-worker?ms=1200`);
  t.equal(visitor.status, 200, "the callee's visitor is answered");
  t.equal(visitor.body.html, '<p>run 2</p>', 'by the same isolate');

  const answer = await killer;
  // The killer's own limit and its child's failure end at nearly the same moment: either answer is exact.
  if (answer.status === 504) t.same(answer.body, { code: 'EXECUTION_TIMEOUT', error: 'The component passed its execution time limit.', name: KILLER, requestVersion: '' });
  else t.same([answer.status, answer.body.html], [200, '<p>the child failed: The component passed its execution time limit.</p>'], 'the child ended EXECUTION_TIMEOUT for its caller');

  t.equal((await request(`${url}slow-worker?ms=0`)).body.html, '<p>run 3</p>', "the callee's isolate was kept: its count goes on");
  await bystanderRenders(t, started, 'After', 'another tenant after the budget killer');
});
