import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';

const WORKER = 'slow-worker';
/** Views whose top-level code looks for the hook that loads the server bundle, to answer the build in its place. */
const HOOKERS = [
  // a forged DEPENDENCY_MISSING_FROM_REGISTRY: a message of 140,000 characters, details of any shape
  'hostile-template-hook',
  // a rope of 100 million characters (a few KB of the isolate's heap, 100 MB once flattened)
  'hostile-template-hook-huge',
  // the host's own request for a version's code
  'hostile-template-hook-need-code',
];

/**
 * A view's top-level code runs before the server bundle, in the same context. The prelude's entry
 * points are gone from the global object before it runs, so whatever it replaces, the version builds
 * as published and its answer is the component's own. One host, shared with another tenant whose
 * component is at work meanwhile: its answer comes from its warm isolate, as if nothing had happened.
 */
t.test("a view's top-level code cannot answer its version's build", async (t) => {
  const started = await startRegistry(t, [...HOOKERS.map((name) => ofTenant('mallory', fixture(name))), ofTenant('acme', fixture(WORKER)), ofTenant('acme', BYSTANDER)]);
  await bystanderRenders(t, started, 'Before', 'another tenant before');
  t.equal((await request(`${started.url}${WORKER}?ms=0`)).body.html, '<p>run 1</p>', 'the neighbour is warm');
  const neighbour = request(`${started.url}${WORKER}?ms=1200`);
  await sleep(300);
  for (const name of HOOKERS) {
    const answer = await request(`${started.url}${name}`);
    t.same([answer.status, answer.body.html], [200, '<p>built as published</p>'], `${name}: built and rendered as published (the answer had ${answer.text.length} characters: ${answer.text.slice(0, 160)})`);
  }
  const answered = await neighbour;
  t.same([answered.status, answered.body.html], [200, '<p>run 2</p>'], `the neighbour's answer, from the same warm isolate (${answered.text.slice(0, 200)})`);
  await bystanderRenders(t, started, 'After', 'another tenant after');
});
