import t from 'tap';
import { fixture, registryOfTheFile, startRegistry } from '../helpers/start-registry';
import { postJson } from './post-json';

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile([fixture('rendering-headers')]);

t.test("items carry the headers their server logic set; the HTTP response gets none of them in a batch of several", async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-headers'), fixture('rendering-child')]);
  const { status, headers, body } = await postJson(url, {
    components: [{ name: 'rendering-headers', parameters: { case: 'headers' } }, { name: 'rendering-child' }, { name: 'rendering-headers', parameters: { case: 'cookies' } }],
  });
  t.equal(status, 200);
  t.same(
    body.map((item: { status: number; headers?: unknown }) => [item.status, item.headers]),
    [
      [200, { 'x-before': 'set', 'cache-control': 'max-age=60', 'x-served-by': 'rendering-headers' }],
      [200, undefined],
      [200, { 'x-before': 'set' }],
    ],
  );
  t.notOk('headers' in body[1], 'an item whose logic set no header has no headers field');
  t.equal(headers.get('x-served-by'), null);
  t.equal(headers.get('x-before'), null);
  t.same(headers.getSetCookie(), []);
});

t.test('a one-item batch puts its headers and cookies on the HTTP response', async (t) => {
  const { url } = await sharedRegistry();
  const headersItem = await postJson(url, { components: [{ name: 'rendering-headers', parameters: { case: 'headers' } }] });
  t.equal(headersItem.headers.get('x-served-by'), 'rendering-headers');
  t.equal(headersItem.headers.get('cache-control'), 'max-age=60');
  t.same(headersItem.body[0].headers, { 'x-before': 'set', 'cache-control': 'max-age=60', 'x-served-by': 'rendering-headers' });

  const cookiesItem = await postJson(url, { components: [{ name: 'rendering-headers', parameters: { case: 'cookies' } }] });
  t.same(
    cookiesItem.headers.getSetCookie().map((cookie) => cookie.split('=')[0]),
    ['oc.rendering-headers.session', 'oc.rendering-headers.theme', 'oc.rendering-headers.until', 'oc.rendering-headers.cross'],
    'each cookie is named after the component that set it',
  );
});

t.test('a failed one-item batch sets no component header', async (t) => {
  const { url } = await sharedRegistry();
  const { status, headers, body } = await postJson(url, { components: [{ name: 'rendering-headers', parameters: { case: 'connection' } }] });
  t.equal(status, 200);
  t.equal(body[0].status, 500);
  t.equal(headers.get('x-before'), null);
});
