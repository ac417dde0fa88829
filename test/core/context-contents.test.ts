import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';

const UNRENDERED = 'application/vnd.oc.unrendered+json';

t.test('the ctx that server logic receives', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-ctx-echo'), ofTenant('acme', fixture('ctx-mutator'))], (config) => {
    config.limits.sandboxHosts = 1;
    config.env = { name: 'core-test-env' };
  });
  const echo = async (query: string, headers: Record<string, string> = {}) => {
    const { status, body } = await request(`${url}core-ctx-echo${query}`, { headers: { accept: UNRENDERED, ...headers } });
    t.equal(status, 200);
    return body.data;
  };

  t.test('baseUrl, env, staticPath, params, templates, state', async (t) => {
    const data = await echo('?label=hi');
    t.equal(data.baseUrl, url);
    t.same(data.env, { API_KEY: 'component-key', name: 'core-test-env' }, "the component's env file, the registry's env winning");
    t.equal(data.staticPath, `${url}core-ctx-echo/1.0.0/static/`);
    t.same(data.params, { label: 'hi', count: 2 });
    t.same(data.handlerParams, data.params);
    t.same(data.templates, [
      { type: 'oc-template-es6', version: '1.0.0', externals: [] },
      { type: 'oc-template-esm', version: '1.0.0', externals: [] },
      { type: 'oc-template-react', version: '19.3.1', externals: [] },
      { type: 'oc-template-handlebars', version: '4.7.10', externals: [] },
    ]);
    t.same(data.state, { seenCount: 2 }, 'the middleware result');
  });

  t.test("env and templates are each execution's own: what one changes, or the built-ins it tries to poison, the next does not see", async (t) => {
    const mutate = async () => (await request(`${url}ctx-mutator`, { headers: { accept: UNRENDERED } })).body.data as { seen: string; poisoned: boolean[] };
    const first = await mutate();
    t.same(JSON.parse(first.seen).env, { name: 'core-test-env' });
    t.equal(JSON.parse(first.seen).templates[0].type, 'oc-template-es6');
    t.same(first.poisoned, [false, false, false], 'the built-ins are frozen');
    const again = await mutate();
    t.equal(again.seen, first.seen, 'the second execution gets them as the first did, before its changes');
    t.equal((await mutate()).seen, first.seen);
    // Another tenant's component beside it: its own context, untouched.
    t.same((await echo('?label=hi')).templates[0], { type: 'oc-template-es6', version: '1.0.0', externals: [] });
  });

  t.test('requestHeaders are the original request headers', async (t) => {
    const data = await echo('', { 'x-core-test': 'yes', 'user-agent': 'core-suite/1.0', authorization: 'Bearer abc' });
    t.equal(data.requestHeaders['x-core-test'], 'yes');
    t.equal(data.requestHeaders['user-agent'], 'core-suite/1.0');
    t.equal(data.requestHeaders['authorization'], 'Bearer abc');
    t.equal(data.requestHeaders['accept'], UNRENDERED);
    t.equal(data.requestHeaders['host'], new URL(url).host);
  });

  t.test('acceptLanguage is parsed and sorted by quality', async (t) => {
    const data = await echo('', { 'accept-language': 'fr-CA;q=0.5, en-GB, de;q=0.8, *;q=0.1, pt' });
    t.same(data.acceptLanguage, [
      { code: 'en', region: 'GB', quality: 1 },
      { code: 'pt', quality: 1 },
      { code: 'de', quality: 0.8 },
      { code: 'fr', region: 'CA', quality: 0.5 },
      { code: '*', quality: 0.1 },
    ]);
  });

  t.test('__ocAcceptLanguage overrides the header and stays out of params', async (t) => {
    const data = await echo(`?__ocAcceptLanguage=${encodeURIComponent('es-MX,es;q=0.9')}`, { 'accept-language': 'en-GB' });
    t.same(data.acceptLanguage, [
      { code: 'es', region: 'MX', quality: 1 },
      { code: 'es', quality: 0.9 },
    ]);
    t.same(data.params, { count: 2 });
  });

  t.test('a configured public base URL reaches ctx and href', async (t) => {
    const configured = await startRegistry(t, [fixture('core-ctx-echo')], (config) => {
      config.limits.sandboxHosts = 1;
      config.baseUrl = 'https://components.example.com/';
    });
    const { body } = await request(`${configured.url}core-ctx-echo`, { headers: { accept: UNRENDERED } });
    t.equal(body.data.baseUrl, 'https://components.example.com/');
    t.equal(body.data.staticPath, 'https://components.example.com/core-ctx-echo/1.0.0/static/');
    t.equal(body.href, 'https://components.example.com/core-ctx-echo?count=2');
    t.equal(body.baseUrl, 'https://components.example.com/');
  });
});
