import t from 'tap';
import { fixture, registryOfTheFile, request, startRegistry } from '../helpers/start-registry';
import { postJson } from '../rendering/post-json';

/** What a browser sends back to the registry's origin after both tenants logged in, beside the site's own cookies. */
const BROWSER_COOKIES = 'site=1; oc.tenant-alpha.session=alpha-secret; theme=dark; oc.tenant-beta.session=beta-secret';

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile([fixture('tenant-alpha'), fixture('tenant-beta')]);

t.test("a component's cookie is sent under its name and reaches only that component; the site's cookies pass as sent", async (t) => {
  const { url } = await sharedRegistry();

  const login = await request(`${url}tenant-alpha?login=true`);
  t.equal(login.status, 200);
  t.same(login.headers.getSetCookie(), ['oc.tenant-alpha.session=alpha-secret; Path=/; HttpOnly'], 'the registry names the cookie after the component');

  const alpha = await request(`${url}tenant-alpha`, { headers: { cookie: BROWSER_COOKIES } });
  t.equal(alpha.body.html, '<p>site=1; session=alpha-secret; theme=dark</p>', 'alpha gets its own cookie back under the name it set');
  const beta = await request(`${url}tenant-beta`, { headers: { cookie: BROWSER_COOKIES } });
  t.equal(beta.body.html, '<p>site=1; theme=dark; session=beta-secret</p>', "beta never sees alpha's session");

  const siteOnly = await request(`${url}tenant-beta`, { headers: { cookie: 'site=1;theme=dark' } });
  t.equal(siteOnly.body.html, '<p>site=1;theme=dark</p>', 'without component cookies the header is untouched');
  const othersOnly = await request(`${url}tenant-beta`, { headers: { cookie: 'oc.tenant-alpha.session=alpha-secret' } });
  t.equal(othersOnly.body.html, '<p>(none)</p>', "with only another component's cookie there is no Cookie header at all");
});

t.test('in one batch (as server-side clients send it) each item sees only its own cookies', async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await postJson(url, { components: [{ name: 'tenant-alpha' }, { name: 'tenant-beta' }] }, { cookie: BROWSER_COOKIES });
  t.equal(status, 200);
  t.same(
    body.map((item: { status: number; response: { html: string } }) => [item.status, item.response.html]),
    [
      [200, '<p>site=1; session=alpha-secret; theme=dark</p>'],
      [200, '<p>site=1; theme=dark; session=beta-secret</p>'],
    ],
  );
});

t.test("a parent cannot forge another component's cookie through a nested render: the child gets only the site's cookies it passes", async (t) => {
  const { url } = await startRegistry(t, [fixture('tenant-forger'), fixture('tenant-beta'), fixture('tenant-alpha')]);
  const { status, body } = await request(`${url}tenant-forger`, { headers: { cookie: BROWSER_COOKIES } });
  t.equal(status, 200);
  t.equal(body.html, '<div><p>site=1</p> | <p>site=1</p> | site=1; theme=dark</div>', "beta reads no session it never set; the forger saw only the site's cookies");
  // Beta's own cookie, sent by the browser, still reaches beta.
  const beta = await request(`${url}tenant-beta`, { headers: { cookie: 'oc.tenant-beta.session=beta-secret' } });
  t.equal(beta.body.html, '<p>session=beta-secret</p>');
});
