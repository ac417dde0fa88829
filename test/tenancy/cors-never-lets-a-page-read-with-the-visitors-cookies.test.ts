import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';

/**
 * Whatever origins the registry answers (the default `*`, or a list holding `null` for the web UI's
 * preview, whose sandboxed frames and a tenant's sandboxed static pages also send `Origin: null`),
 * no answer lets a page read a render made with the visitor's cookies: never
 * `Access-Control-Allow-Credentials`, on the preflight or on the answer.
 */
for (const origins of [['*'], ['null', 'http://site.test']]) {
  t.test(`with cors.origins ${JSON.stringify(origins)}, a credentialed read of beta's answer is never allowed`, async (t) => {
    const { url } = await startRegistry(t, [ofTenant('beta', fixture('tenant-beta'))], (config) => {
      config.cors.origins = origins;
    });
    for (const origin of ['null', 'http://site.test']) {
      const preflight = await request(`${url}tenant-beta`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'accept' },
      });
      t.equal(preflight.status, 204, `preflight from ${origin}`);
      t.equal(preflight.headers.get('access-control-allow-credentials'), null, `no credentials on the preflight from ${origin}`);
      const answer = await request(`${url}tenant-beta`, { headers: { origin, cookie: 'oc.tenant-beta.session=beta-secret' } });
      t.equal(answer.status, 200);
      t.equal(answer.headers.get('access-control-allow-credentials'), null, `no credentials on the answer to ${origin}`);
      t.equal(answer.headers.get('access-control-allow-origin'), origins.includes('*') ? '*' : origin);
    }
  });
}
