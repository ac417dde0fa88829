import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { hostsUp } from '../sandbox/wait-for';

// Mallory's component asks for a nested render of Ada's and answers without waiting: its request
// is answered, its budget closes, and the child still running in Ada's isolate is cancelled. That
// cancel used to discard Ada's isolate (its warm state, every version in it): a caller's cancel
// never does now; the child's own call limit stops what still runs.
t.test("a caller answered before its child keeps the callee's isolate: another tenant's cancel never discards it", async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture('hostile-cancel-caller')), ofTenant('ada', fixture('busy-bystander'))], (config) => {
    config.limits.executionTimeoutMs = 3000;
    config.plugins = [{ name: 'lookup', description: 'answers at once', func: () => 42 }];
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  t.match((await request(`${url}busy-bystander`)).body.html, /^<p>served 1: /, "ada's component is warm");

  const caller = await request(`${url}hostile-cancel-caller?cpu=300`);
  t.same([caller.status, caller.body.html], [200, '<p>answered without waiting</p>']);
  // The child works 300 ms at most in Ada's isolate; whether it started before its cancel or not, the isolate stays.
  await sleep(600);
  const visitor = await request(`${url}busy-bystander`);
  t.equal(visitor.status, 200);
  t.match(visitor.body.html, /^<p>served [23]: /, "ada's next visitor is served by the same isolate: its count goes on");
});
