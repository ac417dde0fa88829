import t from 'tap';
import { fixture, request, startRegistry, type TenantComponent } from '../helpers/start-registry';
import { ADMIN_TOKEN, LABS_TOKEN, SHOP_TOKEN, lastErrorRows as rows, twoTenants } from './tail-helpers';

const as = (tenant: string, name: string): TenantComponent => ({ dir: fixture('errors-thrower'), tenant, name });
const HOSTILE = '<script>alert("owned")</script>';
const html = { accept: 'text/html' };

/** The page of `name`, with `token` posted by its form (none: the field left out). */
const posted = (url: string, name: string, token?: string) =>
  request(`${url}${name}/~info`, {
    method: 'POST',
    headers: { ...html, 'content-type': 'application/x-www-form-urlencoded' },
    body: token === undefined ? '' : new URLSearchParams({ token }).toString(),
  });

const shopRow = (message: string, status = 500) => ['1.0.0', String(status), '<code>GENERIC_ERROR</code>', `Component &quot;shop-thrower&quot; failed: ${message}`];

t.test("a component's page shows its last errors to its tenant and the administrator only, escaped, the newest 20", async (t) => {
  const { url } = await startRegistry(t, [as('shop', 'shop-thrower'), as('labs', 'labs-thrower')], twoTenants);
  // 24 failures, a success, then one whose message is markup: more failures than the ring keeps.
  for (let index = 1; index <= 24; index++) t.equal((await request(`${url}shop-thrower?message=shop+failure+${index}`)).status, 500);
  t.equal((await request(`${url}shop-thrower`)).status, 200);
  t.equal((await request(`${url}shop-thrower?${new URLSearchParams({ message: HOSTILE, status: '503' })}`)).status, 503);
  t.equal((await request(`${url}labs-thrower?message=labs+failure&status=502`)).status, 502);
  const escaped = 'Component &quot;shop-thrower&quot; failed: &lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt;';
  const shopRows = [
    ['1.0.0', '503', '<code>GENERIC_ERROR</code>', escaped],
    ...Array.from({ length: 19 }, (_, index) => shopRow(`shop failure ${24 - index}`)),
  ];

  t.test('without a token: the form only', async (t) => {
    for (const page of [await request(`${url}shop-thrower/~info`, { headers: html }), await posted(url, 'shop-thrower')]) {
      t.equal(page.status, 200);
      t.match(page.text, '<form method="post" class="token" id="errors-form">');
      t.match(page.text, '<input id="errors-token" name="token" type="password" autocomplete="off" required>');
      t.notMatch(page.text, 'shop failure');
      t.notMatch(page.text, 'id="errors"');
    }
  });

  t.test("the tenant's token, posted or as a header: exactly its errors, newest first, escaped", async (t) => {
    const form = await posted(url, 'shop-thrower', SHOP_TOKEN);
    const header = await request(`${url}shop-thrower/1.0.0/~info`, { headers: { ...html, authorization: `Bearer ${SHOP_TOKEN}` } });
    for (const page of [form, header]) {
      t.equal(page.status, 200);
      t.equal(page.headers.get('cache-control'), 'no-store');
      t.match(page.headers.get('content-type'), /^text\/html/);
      t.same(rows(page.text), shopRows);
      t.match(page.text, 'As tenant &quot;shop&quot; sees them on this replica, newest first (at most 20).');
      t.notMatch(page.text, HOSTILE);
      t.notMatch(page.text, 'id="errors-form"');
    }
    const labs = await posted(url, 'labs-thrower', LABS_TOKEN);
    t.equal(labs.status, 200);
    t.same(rows(labs.text), [['1.0.0', '502', '<code>GENERIC_ERROR</code>', 'Component &quot;labs-thrower&quot; failed: labs failure']]);
  });

  t.test("another tenant's token is refused, coded, and sees none", async (t) => {
    for (const page of [await posted(url, 'shop-thrower', LABS_TOKEN), await request(`${url}shop-thrower/~info`, { headers: { ...html, authorization: `Bearer ${LABS_TOKEN}` } })]) {
      t.equal(page.status, 403);
      t.equal(page.headers.get('cache-control'), 'no-store');
      t.match(page.text, '<p class="refusal" role="alert" id="errors-refusal"><code>FORBIDDEN</code> Tenant &quot;labs&quot; may not read the last errors of &quot;shop-thrower&quot;: they are its owner&#39;s.</p>');
      t.match(page.text, 'id="errors-form"');
      t.notMatch(page.text, 'shop failure');
      t.same(rows(page.text), []);
    }
  });

  t.test('an unknown token is refused, coded, and sees none', async (t) => {
    const page = await posted(url, 'shop-thrower', 'not-a-token');
    t.equal(page.status, 401);
    t.match(page.text, '<code>UNAUTHORIZED</code> The token is neither a live publish token of a tenant nor the administrator&#39;s.');
    t.notMatch(page.text, 'shop failure');
  });

  t.test('a posted body that is not a form of fields is refused, coded', async (t) => {
    for (const body of ['[1]', '"token"']) {
      const page = await request(`${url}shop-thrower/~info`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      t.equal(page.status, 400, body);
      t.same(page.body, { code: 'POST_BODY_NOT_VALID', error: 'The request body is not valid: body must be object.', name: '', requestVersion: '' }, body);
    }
  });

  t.test("the administrator sees every tenant's, each with its tenant", async (t) => {
    const page = await posted(url, 'shop-thrower', ADMIN_TOKEN);
    t.equal(page.status, 200);
    t.match(page.text, '<th scope="col">Tenant</th>');
    t.same(rows(page.text), shopRows.map((row) => ['shop', ...row]));
    const labs = await request(`${url}labs-thrower/~info`, { headers: { ...html, authorization: `Bearer ${ADMIN_TOKEN}` } });
    t.same(rows(labs.text), [['labs', '1.0.0', '502', '<code>GENERIC_ERROR</code>', 'Component &quot;labs-thrower&quot; failed: labs failure']]);
  });

  t.test('the JSON API is unchanged by a token', async (t) => {
    const info = await request(`${url}shop-thrower/~info`, { headers: { authorization: `Bearer ${SHOP_TOKEN}` } });
    t.equal(info.status, 200);
    t.equal(info.body.name, 'shop-thrower');
    t.notMatch(info.text, 'shop failure');
  });
});
