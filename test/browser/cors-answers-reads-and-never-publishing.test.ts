import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

const PAGE = 'https://shop.example.com';

t.test('with the default, every read route answers any origin and preflights; publishing answers none', async (t) => {
  const { url } = await startRegistry(t, [fixture('browser-greeting')]);
  const origin = { origin: PAGE };
  const reads: Array<[string, RequestInit]> = [
    [`${url}browser-greeting?name=Ada`, { headers: origin }],
    [`${url}browser-greeting/1.0.0/~info`, { headers: origin }],
    [`${url}browser-greeting/1.0.0/static/template.js`, { headers: origin }],
    [url, { method: 'POST', headers: { ...origin, 'content-type': 'application/json' }, body: '{"components":[{"name":"browser-greeting"}]}' }],
    [`${url}~actions/shout/browser-greeting`, { method: 'POST', headers: { ...origin, 'content-type': 'application/json' }, body: '{"name":"ada"}' }],
    [`${url}oc-client/client.js`, { headers: origin }],
    [`${url}browser-nothing`, { headers: origin }],
  ];
  for (const [address, init] of reads) {
    const answer = await request(address, init);
    t.equal(answer.headers.get('access-control-allow-origin'), '*', `${init.method ?? 'GET'} ${address.slice(url.length - 1)} (${answer.status})`);
  }

  const preflight = await request(`${url}~actions/shout/browser-greeting`, {
    method: 'OPTIONS',
    headers: { ...origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
  t.equal(preflight.status, 204);
  t.same(
    {
      origin: preflight.headers.get('access-control-allow-origin'),
      methods: preflight.headers.get('access-control-allow-methods'),
      headers: preflight.headers.get('access-control-allow-headers'),
      maxAge: preflight.headers.get('access-control-max-age'),
    },
    { origin: '*', methods: 'GET, HEAD, POST', headers: 'content-type', maxAge: '600' },
  );

  const publish = await request(`${url}browser-greeting/2.0.0`, { method: 'PUT', headers: { ...origin, 'content-type': 'application/gzip' }, body: 'x' });
  t.equal(publish.status, 401);
  t.equal(publish.headers.get('access-control-allow-origin'), null, 'a publish answer carries no CORS header');
  const publishPreflight = await request(`${url}browser-greeting/2.0.0`, { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'PUT' } });
  t.equal(publishPreflight.status, 404);
  t.equal(publishPreflight.headers.get('access-control-allow-origin'), null, 'nor does its preflight');
  t.equal(publishPreflight.headers.get('access-control-allow-methods'), null);
});

t.test('with a list of origins, only those are answered, and caches are told the answer varies', async (t) => {
  const { url } = await startRegistry(t, [fixture('browser-greeting')], (config) => {
    config.cors.origins = [PAGE, 'http://127.0.0.1:8080'];
  });
  const allowed = await request(`${url}browser-greeting`, { headers: { origin: PAGE } });
  t.equal(allowed.headers.get('access-control-allow-origin'), PAGE);
  t.match(allowed.headers.get('vary'), /Origin/);
  const other = await request(`${url}browser-greeting`, { headers: { origin: 'https://elsewhere.example.com' } });
  t.equal(other.status, 200, 'the registry still answers; the browser withholds it from that page');
  t.equal(other.headers.get('access-control-allow-origin'), null);
});
