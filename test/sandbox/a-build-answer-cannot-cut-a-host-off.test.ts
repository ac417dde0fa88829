import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';

const NAME = 'hostile-template-hook-huge';
const WORKER = 'slow-worker';

/**
 * One host, shared by two tenants. While another tenant's legitimate component works for a while on
 * it, a component whose view replaced the build hook answers its build with a rope of 100 million
 * characters (a few KB of its heap). No result may leave a sandbox past maxResultBytes, and one
 * component's failure never changes another's answer: the neighbour's answer must come back as if
 * the hostile component had never run.
 */
t.test('a build answer of 100 million characters neither crosses nor costs a neighbour on the same host its answer', async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture(NAME)), ofTenant('acme', fixture(WORKER)), ofTenant('acme', BYSTANDER)]);
  const warm = await request(`${started.url}${WORKER}?ms=0`);
  t.equal(warm.status, 200, 'the neighbour is warm');
  const neighbour = request(`${started.url}${WORKER}?ms=3000`);
  await sleep(300);
  const startedAt = performance.now();
  const hostile = await request(`${started.url}${NAME}`);
  t.comment(`the hostile request took ${Math.round(performance.now() - startedAt)} ms; status ${hostile.status}, ${hostile.text.length} characters`);
  t.equal(hostile.status, 500, 'the hostile component fails');
  t.ok(hostile.text.length < 2000, `its answer is bounded (it was ${hostile.text.length} characters: ${hostile.text.slice(0, 160)})`);
  const answered = await neighbour;
  t.equal(answered.status, 200, `the neighbour's status (its body: ${answered.text.slice(0, 300)})`);
  t.equal(answered.body.html, '<p>run 2</p>', "the neighbour's html, from the same warm isolate");
  await bystanderRenders(t, started, 'After', 'another tenant after');
});
