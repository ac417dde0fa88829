import t from 'tap';
import { fixture, registryOfTheFile, request, startRegistry } from '../helpers/start-registry';
import { postJson } from '../rendering/post-json';

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile([fixture('rendering-headers')]);

t.test('setHeader refuses the headers the registry owns: GENERIC_ERROR, and none of them reaches the response', async (t) => {
  const { url } = await sharedRegistry();
  const cases: Array<[string, string]> = [
    ['set-cookie', 'Set-Cookie'],
    ['content-type', 'content-type'],
    ['access-control', 'Access-Control-Allow-Origin'],
    ['csp', 'content-security-policy'],
    ['hsts', 'strict-transport-security'],
    ['nosniff', 'x-content-type-options'],
    ['content-encoding', 'content-encoding'],
  ];
  for (const [which, header] of cases) {
    const { status, headers, body } = await request(`${url}rendering-headers?case=${which}`);
    t.equal(status, 500, which);
    t.strictSame(
      body,
      { code: 'GENERIC_ERROR', error: `Component "rendering-headers" failed: Header "${header}" cannot be set by a component.`, name: 'rendering-headers', requestVersion: '' },
      which,
    );
    t.same(headers.getSetCookie(), [], `${which}: no cookie`);
    t.equal(headers.get('content-type'), 'application/json; charset=utf-8', `${which}: the registry's content type`);
    t.equal(headers.get('access-control-allow-origin'), '*', `${which}: the registry's own CORS answer`);
    t.equal(headers.get('content-security-policy'), null, which);
    t.equal(headers.get('strict-transport-security'), null, which);
    t.equal(headers.get('content-encoding'), null, which);
  }
});

t.test('setHeader refuses the headers a browser applies to the whole origin: one tenant cannot wipe, watch or move every tenant', async (t) => {
  const { url } = await sharedRegistry();
  const names = ['Clear-Site-Data', 'NEL', 'Report-To', 'Reporting-Endpoints', 'Alt-Svc', 'Accept-CH', 'Critical-CH', 'Set-Login', 'Service-Worker-Allowed'];
  for (const name of names) {
    const { status, headers, body } = await request(`${url}rendering-headers?case=named&header=${name}`);
    t.equal(status, 500, name);
    t.strictSame(
      body,
      { code: 'GENERIC_ERROR', error: `Component "rendering-headers" failed: Header "${name}" cannot be set by a component.`, name: 'rendering-headers', requestVersion: '' },
      name,
    );
    t.equal(headers.get(name), null, `${name}: not in the response`);
  }
  // Each refused alone: in a batch of one the item fails, and its headers never reach the HTTP answer.
  const batch = await postJson(url, { components: [{ name: 'rendering-headers', parameters: { case: 'named', header: 'clear-site-data' } }] });
  t.equal(batch.status, 200);
  t.equal(batch.body[0].status, 500);
  t.equal(batch.body[0].response.code, 'GENERIC_ERROR');
  t.equal(batch.headers.get('clear-site-data'), null);
  // A header of no such reach is still the component's to set.
  const allowed = await request(`${url}rendering-headers?case=named&header=x-tenant-note`);
  t.equal(allowed.status, 200);
  t.equal(allowed.headers.get('x-tenant-note'), '1');
});

// The registry marks a deprecated version itself (decisions §14): a live version marking itself
// would tell clients that read RFC 9745 that it is going away.
t.test('setHeader refuses Deprecation: only the registry says a version is deprecated', async (t) => {
  const { url } = await sharedRegistry();
  for (const name of ['Deprecation', 'deprecation']) {
    const { status, headers, body } = await request(`${url}rendering-headers?case=named&header=${name}`);
    t.equal(status, 500, name);
    t.strictSame(
      body,
      { code: 'GENERIC_ERROR', error: `Component "rendering-headers" failed: Header "${name}" cannot be set by a component.`, name: 'rendering-headers', requestVersion: '' },
      name,
    );
    t.equal(headers.get('deprecation'), null, `${name}: not in the response`);
  }
});

t.test("a component's Vary adds to the registry's Vary: Origin, never replaces it", async (t) => {
  const page = 'http://127.0.0.1:8080';
  const { url } = await startRegistry(t, [fixture('rendering-headers')], (config) => {
    config.cors.origins = [page];
  });
  const { status, headers } = await request(`${url}rendering-headers?case=named&header=Vary`, { headers: { origin: page } });
  t.equal(status, 200);
  t.equal(headers.get('access-control-allow-origin'), page);
  t.equal(headers.get('vary'), 'Origin, 1');
});
