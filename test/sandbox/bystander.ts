import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { DEMO, request, type StartedRegistry } from '../helpers/start-registry';
import { hostsUp } from './wait-for';

/** A well-behaved component published beside the hostile ones in every sandbox test. */
export const BYSTANDER = path.join(DEMO, 'hello-world');

interface Assert {
  equal(found: unknown, wanted: unknown, message: string): unknown;
}

/**
 * Renders the bystander for a name and checks its exact answer: a hostile component running at
 * the same time (or just before) must not change it. `init` sends the request as a given visitor
 * (its cookies, say).
 */
export async function bystanderRenders(t: Assert, started: StartedRegistry, who: string, message: string, init: RequestInit = {}): Promise<void> {
  const { url, registry } = started;
  const { status, body } = await request(`${url}hello-world/1.0.0?name=${encodeURIComponent(who)}`, init);
  const templateKey = registry.catalog.resolve('hello-world', '1.0.0').templateKey;
  t.equal(status, 200, `${message}: status`);
  t.equal(
    typeof body.html === 'string' ? body.html.replace(/ id="[0-9a-f-]{36}"/, ' id="ID"') : body,
    `<oc-component href="${url}hello-world/1.0.0?name=${encodeURIComponent(who)}" data-hash="${templateKey}" id="ID" data-name="hello-world" ` +
      `data-rendered="true" data-version="1.0.0"><p class="hello-world">Hello, ${who}!</p>` +
      `<script>window.oc=window.oc||{};oc.renderedComponents=oc.renderedComponents||{};oc.renderedComponents["hello-world"]="1.0.0";</script></oc-component>`,
    `${message}: html`,
  );
}

/**
 * Renders the bystander until its first build is done. A build counts in its first execution's
 * deadline, and is kept when that execution times out: with the short limits of the tests of time
 * limits, a machine whose CPUs are busy with other work may pass one while building.
 */
async function bystanderBuilt(started: StartedRegistry): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { status, body } = await request(`${started.url}hello-world/1.0.0?name=Warm`);
    if (status === 200 || attempt === 10 || (body as { code?: string }).code !== 'EXECUTION_TIMEOUT') return;
  }
}

interface Test extends Assert {
  same(found: unknown, wanted: unknown, message: string): unknown;
  ok(value: unknown, message: string): unknown;
}

/**
 * Waits for every host to start and renders the bystander once, then requests a hostile
 * component while the bystander renders concurrently, checks the hostile answer exactly, and
 * renders the bystander once more right after. With `outlasts`, the hostile
 * request must still be running when the concurrent bystander has already answered. Answers how
 * long the hostile request took, in milliseconds.
 */
export async function hostileBesideBystander(
  t: Test,
  started: StartedRegistry,
  hostilePath: string,
  /** `orBody`: a second answer just as right (which of two limits stops a component may depend on V8's timing). */
  expected: { status: number; body: unknown; orBody?: unknown },
  options: { outlasts?: boolean } = {},
): Promise<number> {
  await hostsUp(started.registry, started.registry.pool.size);
  await bystanderBuilt(started);
  await bystanderRenders(t, started, 'Before', `${hostilePath}: bystander before`);
  const startedAt = performance.now();
  let hostileDone = false;
  const hostile = request(`${started.url}${hostilePath}`).finally(() => {
    hostileDone = true;
  });
  await bystanderRenders(t, started, 'Concurrent', `${hostilePath}: bystander during`);
  if (options.outlasts) t.ok(!hostileDone, `${hostilePath}: the bystander answered while the hostile component was still running`);
  const { status, body } = await hostile;
  const elapsed = performance.now() - startedAt;
  t.equal(status, expected.status, `${hostilePath}: status`);
  if (expected.orBody !== undefined && isDeepStrictEqual(body, expected.orBody)) t.same(body, expected.orBody, `${hostilePath}: body`);
  else t.same(body, expected.body, `${hostilePath}: body`);
  await bystanderRenders(t, started, 'After', `${hostilePath}: bystander right after`);
  return elapsed;
}
