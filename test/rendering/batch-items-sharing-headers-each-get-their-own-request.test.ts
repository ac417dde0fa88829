import t from 'tap';
import { fixture, registryOfTheFile } from '../helpers/start-registry';
import { postJson } from './post-json';

const UNRENDERED = 'application/vnd.oc.unrendered+json';
/** A page's headers: the site's cookies beside two tenants' components' own, and the visitor's languages. */
const COOKIES = 'site=1; oc.tenant-alpha.session=alpha-secret; oc.core-ctx-echo.seen=3; oc.tenant-beta.session=beta-secret';

const sharedRegistry = registryOfTheFile([fixture('core-ctx-echo'), fixture('tenant-alpha'), fixture('tenant-beta')]);

t.test("the items of one batch share its headers, and each is told them as its component may see them, in any order", async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await postJson(url, { components: ['tenant-alpha', 'tenant-beta', 'tenant-alpha', 'tenant-beta', 'tenant-alpha'].map((name) => ({ name })) }, { cookie: COOKIES });
  t.equal(status, 200);
  const alpha = '<p>site=1; session=alpha-secret</p>';
  const beta = '<p>site=1; session=beta-secret</p>';
  t.same(
    body.map((item: { response: { html: string } }) => /<p>.*<\/p>/.exec(item.response.html)?.[0]),
    [alpha, beta, alpha, beta, alpha],
  );
});

t.test("an item's __ocAcceptLanguage is its own: the items beside it keep the header's languages", async (t) => {
  const { url } = await sharedRegistry();
  const items = [{ parameters: { __ocAcceptLanguage: 'es-MX' } }, {}, { parameters: { __ocAcceptLanguage: 'fr' } }, {}, { parameters: { __ocAcceptLanguage: 'es-MX' } }];
  const { status, body } = await postJson(
    url,
    { components: items.map((item) => ({ name: 'core-ctx-echo', ...item })) },
    { accept: UNRENDERED, 'accept-language': 'en-GB,en;q=0.5', cookie: COOKIES },
  );
  t.equal(status, 200);
  const data = body.map((item: { status: number; response: { data: { acceptLanguage: unknown; requestHeaders: Record<string, string> } } }) => {
    t.equal(item.status, 200);
    return item.response.data;
  });
  const header = [
    { code: 'en', region: 'GB', quality: 1 },
    { code: 'en', quality: 0.5 },
  ];
  t.same(
    data.map((item: { acceptLanguage: unknown }) => item.acceptLanguage),
    [[{ code: 'es', region: 'MX', quality: 1 }], header, [{ code: 'fr', quality: 1 }], header, [{ code: 'es', region: 'MX', quality: 1 }]],
  );
  for (const item of data) t.equal(item.requestHeaders['cookie'], 'site=1; seen=3', "each item reads its own component's cookie, none of the others'");
});
