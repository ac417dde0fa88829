import t from 'tap';
import { fixture, registryOfTheFile, request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { parseMetrics, valueOf } from './parse-metrics';
import { BYSTANDER, bystanderRenders } from './bystander';

const NAME = 'hostile-fan-out';

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile([fixture(NAME), BYSTANDER], TWO_HOSTS);

t.test('one renderComponents call takes at most maxBatchSize components', async (t) => {
  const started = await sharedRegistry();
  const { status, body } = await request(`${started.url}${NAME}?shape=wide`);
  t.equal(status, 500);
  t.same(body, { code: 'GENERIC_ERROR', error: `Component "${NAME}" failed: renderComponents takes at most 50 components.`, name: NAME, requestVersion: '' });
  await bystanderRenders(t, started, 'After', 'another tenant after the wide fan-out');
});

t.test('a request runs at most maxExecutionsPerRequest executions across all its nesting levels', async (t) => {
  // Slots held at once are bounded too (maxSlotsPerRequest, pinned in request-slots-are-bounded): lifted here.
  const started = await startRegistry(t, [fixture(NAME), BYSTANDER], (config) => {
    TWO_HOSTS(config);
    config.limits.maxSlotsPerRequest = 1000;
    config.limits.maxConcurrentPerComponent = 1000;
  });
  const during = bystanderRenders(t, started, 'During', 'another tenant during the deep fan-out');
  const { status, body } = await request(`${started.url}${NAME}?shape=deep`);
  await during;
  t.equal(status, 200);
  t.equal(body.html, '<p>10 rendered, 0 refused: </p>', 'the root sees its ten children');
  const metrics = parseMetrics((await request(`${started.url}metrics`)).text);
  const ok = valueOf(metrics, 'tessera_renders_total', { component: NAME, version: '1.0.0', tenant: 'default', outcome: 'ok' });
  const refused = valueOf(metrics, 'tessera_renders_total', { component: NAME, version: '1.0.0', tenant: 'default', outcome: 'REQUEST_BUDGET_EXCEEDED' });
  t.equal(ok, 100, 'exactly the budget of executions ran');
  t.ok(refused > 0, `the others were refused (${refused})`);
  await bystanderRenders(t, started, 'After', 'another tenant after the deep fan-out');
});

// Renders the registry refuses before running anything still cost a crossing each: 100,000 at once
// held hundreds of MB in the host and the front and stalled every tenant for seconds. Only the first
// maxExecutionsPerRequest of an execution leave its isolate.
t.test('an execution asks for at most maxExecutionsPerRequest nested renders, rendered or not', async (t) => {
  const started = await sharedRegistry();
  const refused = 'A component may ask for at most 100 nested renders in one execution.';
  const notPublished = 'Component "no-such-component" is not published on this registry.';
  for (const shape of ['flood', 'loop']) {
    const during = bystanderRenders(t, started, 'During', `another tenant during the ${shape}`);
    const { status, body } = await request(`${started.url}${NAME}?shape=${shape}`);
    await during;
    t.equal(status, 200, shape);
    t.equal(body.html, `<p>100 × ${notPublished} / 9900 × ${refused}</p>`, `${shape}: 100 crossed, the rest refused in the isolate`);
  }
});
