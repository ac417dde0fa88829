import t from 'tap';
import { request } from '../helpers/start-registry';
import { GREETING, GREETERS_TOKEN, SHOP_TOKEN, packed, put, startPublishRegistry } from '../publish/publish-helpers';
import { ADMIN_TOKEN, admin, tenantWithToken, withAdmin } from './admin-helpers';

/**
 * The operator's routes and the tenants' tokens against the usual tricks: a publish token at the
 * admin routes, the admin token's casing, two Authorization headers, a revoked token reused for
 * every action, and a stored tenant's token on another tenant's version.
 */

t.test('admin routes take the admin token only, however the header is dressed', async (t) => {
  const { url } = await startPublishRegistry(t, withAdmin);
  const unauthorized = { code: 'UNAUTHORIZED', error: 'The admin token is required: send "Authorization: Bearer <admin token>".', name: '', requestVersion: '' };
  for (const [what, headers] of [
    ['a publish token', { authorization: `Bearer ${GREETERS_TOKEN}` }],
    ['the admin token in upper case', { authorization: `Bearer ${ADMIN_TOKEN.toUpperCase()}` }],
    ['the admin token without its scheme', { authorization: ADMIN_TOKEN }],
    ['the admin token as Basic', { authorization: `Basic ${ADMIN_TOKEN}` }],
    ['the admin token with a suffix', { authorization: `Bearer ${ADMIN_TOKEN} x` }],
    ['the admin token in another header', { 'x-authorization': `Bearer ${ADMIN_TOKEN}` }],
  ] as const) {
    const answer = await request(`${url}~admin/tenants`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'intruder', components: ['*'] }) });
    t.equal(answer.status, 401, what);
    t.same(answer.body, unauthorized, what);
  }
  // Two Authorization headers: fetch joins them with ", "; neither half passes alone.
  const twice = new Headers();
  twice.append('authorization', `Bearer ${GREETERS_TOKEN}`);
  twice.append('authorization', `Bearer ${ADMIN_TOKEN}`);
  t.equal((await request(`${url}~admin/tokens`, { headers: twice })).status, 401, 'two headers, the admin one second');
  t.equal((await admin(url, 'GET', 'tenants')).body.tenants.length, 0, 'no tenant was created');
  // Lower-case scheme is the same scheme (RFC 9110): accepted.
  t.equal((await request(`${url}~admin/tenants`, { headers: { authorization: `bearer ${ADMIN_TOKEN}` } })).status, 200);
});

t.test('a revoked token publishes, unpublishes and deprecates nothing, and another tenant\'s token touches nothing of it', async (t) => {
  const { url } = await startPublishRegistry(t, withAdmin);
  const { id, token } = await tenantWithToken(url, { name: 'blog', components: ['publish-greet*'] });
  t.equal((await put(url, 'publish-greeting/1.0.0', await packed(GREETING), { token })).status, 201);

  // The shop's configured token and the greeters' (same patterns, another tenant) cannot touch the blog's version.
  for (const other of [SHOP_TOKEN, GREETERS_TOKEN]) {
    const unpublish = await request(`${url}publish-greeting/1.0.0`, { method: 'DELETE', headers: { authorization: `Bearer ${other}` } });
    t.equal(unpublish.status, 403);
    t.equal(unpublish.body.code, 'FORBIDDEN');
    const deprecate = await request(`${url}publish-greeting/1.0.0/~deprecate`, { method: 'POST', headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json' }, body: '{"message":"gone"}' });
    t.equal(deprecate.status, 403);
  }

  t.equal((await admin(url, 'DELETE', `tokens/${id}`)).status, 200);
  const refused = { code: 'UNAUTHORIZED', name: 'publish-greeting' };
  const publish = await put(url, 'publish-greeting/1.0.1', await packed(GREETING, '1.0.1'), { token });
  t.equal(publish.status, 401);
  t.match(publish.body, refused);
  const unpublish = await request(`${url}publish-greeting/1.0.0`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
  t.equal(unpublish.status, 401);
  t.match(unpublish.body, refused);
  const deprecate = await request(`${url}publish-greeting/1.0.0/~deprecate`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"message":"gone"}' });
  t.equal(deprecate.status, 401);
  t.equal((await request(`${url}~admin/tokens`, { headers: { authorization: `Bearer ${token}` } })).status, 401, 'a tenant token is no admin token');

  const info = await request(`${url}publish-greeting/1.0.0/~info`);
  t.equal(info.status, 200, 'the version stays');
  t.equal(info.body.state, undefined, 'not deprecated');
  t.same(info.body.allVersions, ['1.0.0']);
  // The audit log names the publish and the revocation, nothing refused.
  const actions = (await admin(url, 'GET', 'audit')).body.entries.map((entry: { action: string }) => entry.action);
  t.same(actions, ['tenant-create', 'token-create', 'publish', 'token-revoke']);
});

t.test('admin query and path parameters that would leave their folder are refused with a code', async (t) => {
  const { url } = await startPublishRegistry(t, withAdmin);
  for (const path of ['tenants/..%2Ftokens', 'tokens/..%2F..%2Fcomponents', 'tenants/A']) {
    const answer = await admin(url, path.startsWith('tokens') ? 'DELETE' : 'GET', path);
    t.equal(answer.status, 400, path);
    t.equal(answer.body.code, 'NOT_VALID_REQUEST', path);
  }
  const audit = await admin(url, 'GET', 'audit?after=../../components&limit=1');
  t.ok([200, 400].includes(audit.status), 'after is a cursor, never a path');
  if (audit.status === 200) t.same(audit.body.entries, []);
});
