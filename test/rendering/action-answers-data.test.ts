import t from 'tap';
import { fixture, registryOfTheFile, request } from '../helpers/start-registry';
import { postJson } from './post-json';

const AUTH = { authorization: 'Bearer letmein' };

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile([fixture('rendering-actions')]);

t.test("POST /~actions/:action/:name answers the unrendered shape with the action's result as data", async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await postJson(`${url}~actions/double/rendering-actions`, { amount: 21 }, AUTH);
  t.equal(status, 200);
  t.strictSame(body, {
    href: `${url}rendering-actions?amount=21&currency=EUR`,
    name: 'rendering-actions',
    version: '1.0.0',
    requestVersion: '',
    data: { doubled: 42, currency: 'EUR', user: 'ada' },
    template: { src: `${url}rendering-actions/1.0.0/static/template.js`, type: 'oc-template-es6', key: body.template.key },
    type: 'oc-component',
    renderMode: 'unrendered',
    baseUrl: url,
  });
  t.match(body.template.key, /^[0-9a-f]{40}$/);
});

t.test('POST /~actions/:action/:name/:version resolves the version; string parameters are coerced like a query', async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await postJson(`${url}~actions/double/rendering-actions/1.x`, { amount: '2.5', currency: 'USD' }, AUTH);
  t.equal(status, 200);
  t.equal(body.requestVersion, '1.x');
  t.equal(body.version, '1.0.0');
  t.same(body.data, { doubled: 5, currency: 'USD', user: 'ada' });
});

t.test('an action returning nothing answers data: null; no body means no parameters', async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await request(`${url}~actions/nothing/rendering-actions`, { method: 'POST', headers: AUTH });
  t.equal(status, 200);
  t.equal(body.data, null);
});
