import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

const UNRENDERED = { accept: 'application/vnd.oc.unrendered+json' };

t.test('defaults, coercion, pass-through and href', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-params')], (config) => {
    config.limits.sandboxHosts = 1;
  });

  t.test('defaults are applied and shown in href after the request order', async (t) => {
    const { status, body } = await request(`${url}core-params?days=3&city=Porto`, { headers: UNRENDERED });
    t.equal(status, 200);
    t.equal(body.href, `${url}core-params?days=3&city=Porto&units=metric&compact=false`);
    t.same(body.data, {
      params: { days: 3, city: 'Porto', units: 'metric', compact: false },
      types: { days: 'number', city: 'string', units: 'string', compact: 'boolean' },
    });

    const rendered = await request(`${url}core-params/1.0.0?city=Porto`);
    t.equal(rendered.status, 200);
    const href = `${url}core-params/1.0.0?city=Porto&units=metric&days=1&compact=false`;
    t.equal(rendered.body.href, href);
    t.ok(rendered.body.html.startsWith(`<oc-component href="${href.replace(/&/g, '&amp;')}" data-hash="`), 'the wrapper carries the same href, HTML-escaped');
  });

  t.test('numbers and booleans reach the handler as real types', async (t) => {
    const { body } = await request(`${url}core-params?city=Faro&days=-2.5&compact=true&units=imperial`, { headers: UNRENDERED });
    t.same(body.data, {
      params: { city: 'Faro', days: -2.5, compact: true, units: 'imperial' },
      types: { city: 'string', days: 'number', compact: 'boolean', units: 'string' },
    });
    const exponent = await request(`${url}core-params?city=Faro&days=1e3&compact=false`, { headers: UNRENDERED });
    t.same(exponent.body.data.params, { city: 'Faro', days: 1000, compact: false, units: 'metric' });
  });

  t.test('undeclared parameters pass through as strings; registry controls do not', async (t) => {
    const { body } = await request(`${url}core-params?extra=42&city=Braga&__ocAcceptLanguage=fr`, { headers: UNRENDERED });
    t.equal(body.href, `${url}core-params?extra=42&city=Braga&units=metric&days=1&compact=false`);
    t.same(body.data.params, { extra: '42', city: 'Braga', units: 'metric', days: 1, compact: false });
    t.equal(body.data.types.extra, 'string');
  });

  t.test('a repeated parameter is refused, not collapsed to one of its values', async (t) => {
    const { status, body } = await request(`${url}core-params?city=Braga&city=Evora`, { headers: UNRENDERED });
    t.equal(status, 400);
    t.equal(body.code, 'NOT_VALID_REQUEST');
  });

  t.test('href encodes names and values with encodeURIComponent', async (t) => {
    const city = 'São Paulo & co/?=#';
    const { status, body } = await request(`${url}core-params?city=${encodeURIComponent(city)}&x%20y=a+b`, { headers: UNRENDERED });
    t.equal(status, 200);
    t.equal(body.data.params.city, city);
    t.equal(body.href, `${url}core-params?city=S%C3%A3o%20Paulo%20%26%20co%2F%3F%3D%23&x%20y=a%20b&units=metric&days=1&compact=false`);

    // What a path cannot carry of the version expression (a range's spaces, < and >) is encoded: href stays a valid URL.
    const ranged = await request(`${url}core-params/${encodeURIComponent('>=1.0.0 <2')}?city=Porto`, { headers: UNRENDERED });
    t.equal(ranged.body.requestVersion, '>=1.0.0 <2');
    t.equal(ranged.body.href, `${url}core-params/%3E=1.0.0%20%3C2?city=Porto&units=metric&days=1&compact=false`);
    t.equal((await request(ranged.body.href, { headers: UNRENDERED })).body.href, ranged.body.href, 'following href answers the same href');
  });
});
