import { randomBytes } from 'node:crypto';
import t, { type Test } from 'tap';
import { packagedFixture } from '../helpers/packaged-fixture';
import { fixture, request, startRegistry, type TenantComponent } from '../helpers/start-registry';
import { LABS_TOKEN, openTail, SHOP_TOKEN, twoTenants, type Tail, type TailEvent } from './tail-helpers';

const LOGGER = fixture('tail-logger');
const MESSAGE = (name: string) => `${name}@1.0.0 failed on purpose`;
const FAILED = (name: string) => ({ status: 500, code: 'GENERIC_ERROR', message: `Component "${name}" failed: ${MESSAGE(name)}` });
/** Where tail-logger's entry throws, and calls the function that throws. */
const MAPPED = (source: string) => [`at failOnPurpose (${source}:7:9)`, `at Object.handler (${source}:20:31)`];
const BUNDLE = [/^at failOnPurpose \(server\.js:1:\d+\)$/, /^at Object\.handler \(server\.js:1:\d+\)$/];

/** The logger as `name`, of `tenant`, its package's source map replaced by `map`. */
const logger = (tenant: string, name: string, map?: string | Buffer): TenantComponent => ({
  dir: LOGGER,
  tenant,
  name,
  files: map === undefined ? undefined : { 'server.js.map': Buffer.from(map) },
});

/** Renders `name` failing, and answers its event in `tail` (known by the trace id the render is sent with). */
async function failed(t: Test, url: string, tail: Tail, name: string): Promise<TailEvent['data']> {
  const traceId = randomBytes(16).toString('hex');
  const render = await request(`${url}${name}?lines=1&fail=true`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
  t.equal(render.status, 500, `${name} is rendered, and fails as its code says`);
  t.same(render.body.code, 'GENERIC_ERROR');
  return (await tail.waitFor((event) => event.type === 'execution' && event.data.traceId === traceId)).data;
}

t.test("an exception's frames are mapped to the component's source files by its package's source map", async (t) => {
  const { url } = await startRegistry(t, [logger('shop', 'shop-logger')], twoTenants);
  const shop = await openTail(url, SHOP_TOKEN);
  t.teardown(() => shop.close());
  for (const time of ['first', 'again']) {
    const event = await failed(t, url, shop, 'shop-logger');
    t.same(event.outcome, FAILED('shop-logger'));
    t.same(event.exception, { message: MESSAGE('shop-logger'), stack: MAPPED('src/entry.server.ts') }, `${time}: mapped`);
  }
});

t.test("a hostile source map leaves the bundle's frames, breaks no render nor tail, and another tenant's component renders beside it", async (t) => {
  const real = JSON.parse((await packagedFixture(LOGGER)).files.get('server.js.map')!.toString('utf8'));
  const withSources = (sources: string[]) => JSON.stringify({ ...real, sources });
  const hostile: Record<string, string> = {
    'shop-not-json': '{"version": 3, "sources": [',
    'shop-bad-mappings': JSON.stringify({ ...real, mappings: `${real.mappings},!!!` }),
    'shop-out-of-sources': JSON.stringify({ ...real, sources: [] }),
    'shop-version-2': JSON.stringify({ ...real, version: 2 }),
    'shop-nested': `{"version": 3, "sources": ${'['.repeat(100_000)}${']'.repeat(100_000)}, "mappings": ""}`,
    'shop-oversized': JSON.stringify({ ...real, names: ['x'.repeat(5 * 1024 * 1024)] }),
  };
  const renamed: Record<string, [string, string]> = {
    'shop-traversal': ['../../../../etc/passwd', 'etc/passwd'],
    'shop-markup': ['src/<img src=x onerror="alert(1)">.ts', 'src/_img src=x onerror=_alert_1___.ts'],
    'shop-long-name': [`${'deep/'.repeat(100)}entry.ts`, `…${`${'deep/'.repeat(100)}entry.ts`.slice(-200)}`],
  };
  const { url } = await startRegistry(
    t,
    [
      ...Object.entries(hostile).map(([name, map]) => logger('shop', name, map)),
      ...Object.entries(renamed).map(([name, [source]]) => logger('shop', name, withSources(['oc-server/index.ts', source]))),
      logger('labs', 'labs-logger'),
    ],
    twoTenants,
  );
  const shop = await openTail(url, SHOP_TOKEN);
  const labs = await openTail(url, LABS_TOKEN);
  for (const tail of [shop, labs]) t.teardown(() => tail.close());

  // Rendering never reads a map.
  for (const name of [...Object.keys(hostile), ...Object.keys(renamed)]) {
    const rendered = await request(`${url}${name}?lines=1`);
    t.equal(rendered.status, 200, `${name} renders`);
  }
  const [bystander] = await Promise.all([failed(t, url, labs, 'labs-logger'), ...Object.keys(hostile).map((name) => failed(t, url, shop, name))]);
  t.same(bystander.exception, { message: MESSAGE('labs-logger'), stack: MAPPED('src/entry.server.ts') }, "the other tenant's frames are mapped");
  for (const name of Object.keys(hostile)) {
    const event = await failed(t, url, shop, name);
    t.same(event.outcome, FAILED(name));
    t.equal(event.exception.message, MESSAGE(name));
    t.match(event.exception.stack, BUNDLE, `${name}: the bundle's frames`);
    t.equal(event.exception.stack.length, 2);
  }
  for (const [name, [, shown]] of Object.entries(renamed)) {
    const event = await failed(t, url, shop, name);
    t.same(event.exception.stack, MAPPED(shown), `${name}: the source's name is cleaned`);
  }
  const after = await request(`${url}labs-logger?lines=1`);
  t.equal(after.status, 200, 'the bystander still renders');
});
