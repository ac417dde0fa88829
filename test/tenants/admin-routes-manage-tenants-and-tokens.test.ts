import t from 'tap';
import { GREETERS_TOKEN, GREETING, packed, packedAs, put, startPublishRegistry } from '../publish/publish-helpers';
import { startRegistry } from '../helpers/start-registry';
import { tenantWeight } from '../../src/tenants/tenant-weight';
import { admin, ADMIN_TOKEN, withAdmin } from './admin-helpers';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

t.test('without the admin token every /~admin/ route is refused, coded', async (t) => {
  const { url } = await startPublishRegistry(t, withAdmin);
  for (const [method, path] of [
    ['GET', 'tenants'],
    ['POST', 'tenants'],
    ['GET', 'tenants/x'],
    ['POST', 'tenants/x/tokens'],
    ['GET', 'tokens'],
    ['DELETE', 'tokens/abc'],
    ['GET', 'audit'],
  ] as const) {
    const missing = await admin(url, method, path, undefined, '');
    t.equal(missing.status, 401, `${method} ${path} without a token`);
    t.same(missing.body, { code: 'UNAUTHORIZED', error: 'The admin token is required: send "Authorization: Bearer <admin token>".', name: '', requestVersion: '' });
    const publishToken = await admin(url, method, path, undefined, GREETERS_TOKEN);
    t.equal(publishToken.status, 401, `${method} ${path} with a publish token`);
  }
  const off = await startPublishRegistry(t);
  const refused = await admin(off.url, 'GET', 'tenants');
  t.equal(refused.status, 401);
  t.same(refused.body, { code: 'UNAUTHORIZED', error: 'Administration is off on this registry: its configuration sets no adminTokenSha256.', name: '', requestVersion: '' });
});

t.test('tenants are created, listed and shown; a name is taken once; bodies are checked', async (t) => {
  const { url } = await startPublishRegistry(t, withAdmin);
  const created = await admin(url, 'POST', 'tenants', { name: 'checkout', components: ['checkout-*'], quotas: { publishesPerHour: 5 }, weight: 2 });
  t.equal(created.status, 201);
  t.match(created.body, { name: 'checkout', components: ['checkout-*'], quotas: { publishesPerHour: 5 }, weight: 2, revision: 1, updatedBy: 'admin' });
  t.match(created.body.updatedAt, ISO);

  const again = await admin(url, 'POST', 'tenants', { name: 'checkout', components: ['x'] });
  t.equal(again.status, 409);
  t.same(again.body, { code: 'ALREADY_EXISTS', error: 'Tenant "checkout" already exists; change it with PUT /~admin/tenants/checkout.', name: '', requestVersion: '' });

  // Each refusal names the key at fault, in its sentence and in details.parameters.
  const refusals: Array<[unknown, string, string]> = [
    [{ components: ['x'] }, 'name', 'is required'],
    [{ name: 'Bad Name', components: ['x'] }, 'name', 'must match pattern "^[a-z0-9-]+$"'],
    [{ name: 'x', components: [] }, 'components', 'must NOT have fewer than 1 items'],
    [{ name: 'x', components: ['x'], quotas: { storageBytes: -1 } }, 'quotas.storageBytes', 'must be >= 0'],
    [{ name: 'x', components: ['x'], extra: 1 }, 'extra', 'is not a key this body takes'],
    [{ name: 'x', components: ['x'], quotas: { publishesPerHr: 5 } }, 'quotas.publishesPerHr', 'is not a key this body takes'],
    [{ name: 'x', components: ['x'], weight: 1001 }, 'weight', 'must be <= 1000'],
  ];
  for (const [body, key, problem] of refusals) {
    const refused = await admin(url, 'POST', 'tenants', body);
    t.equal(refused.status, 400, JSON.stringify(body));
    t.same(
      refused.body,
      { code: 'POST_BODY_NOT_VALID', error: `The request body is not valid: "${key}" ${problem}.`, name: '', requestVersion: '', details: { parameters: [{ name: key, problem }] } },
      JSON.stringify(body),
    );
  }

  await admin(url, 'POST', 'tenants', { name: 'analytics', components: ['analytics-*'] });
  const list = await admin(url, 'GET', 'tenants');
  t.equal(list.status, 200);
  t.same(list.body.tenants.map((tenant: { name: string }) => tenant.name), ['analytics', 'checkout']);
  t.same(list.body.tenants[0].quotas, {});

  const shown = await admin(url, 'GET', 'tenants/checkout');
  t.equal(shown.status, 200);
  t.same(shown.body.usage, { storageBytes: 0, versions: 0, publishesThisHour: 0, liveTokens: 0 });
  const unknown = await admin(url, 'GET', 'tenants/nobody');
  t.equal(unknown.status, 404);
  t.same(unknown.body, { code: 'NOT_FOUND', error: 'No tenant is named "nobody".', name: '', requestVersion: '' });
  const badName = await admin(url, 'GET', 'tenants/Not_A_Name');
  t.equal(badName.status, 400);
  t.equal(badName.body.code, 'NOT_VALID_REQUEST');
  t.same(badName.body.details.parameters, [{ name: 'name', problem: 'must match pattern "^[a-z0-9-]+$"' }]);

  const changed = await admin(url, 'PUT', 'tenants/checkout', { weight: 3 });
  t.equal(changed.status, 200);
  t.match(changed.body, { name: 'checkout', components: ['checkout-*'], quotas: { publishesPerHour: 5 }, weight: 3, revision: 2 });
});

t.test('a token is shown once, listed without its secret, publishes inside its tenant, and once revoked is refused', async (t) => {
  const { url, registry } = await startPublishRegistry(t, withAdmin);
  await admin(url, 'POST', 'tenants', { name: 'greeters-two', components: ['publish-greet*'] });
  const created = await admin(url, 'POST', 'tenants/greeters-two/tokens');
  t.equal(created.status, 201);
  t.equal(created.headers.get('cache-control'), 'no-store');
  t.same(Object.keys(created.body).sort(), ['createdAt', 'createdBy', 'id', 'tenant', 'token']);
  t.match(created.body, { tenant: 'greeters-two', createdBy: 'admin' });
  t.match(created.body.id, /^[0-9a-f]{16}$/);
  t.match(created.body.token, /^tsr_[A-Za-z0-9_-]{43}$/);

  const listed = await admin(url, 'GET', 'tokens');
  t.same(listed.body, { tokens: [{ id: created.body.id, tenant: 'greeters-two', createdAt: created.body.createdAt, createdBy: 'admin' }] });
  t.notOk(listed.text.includes(created.body.token), 'the secret is never listed');
  t.same((await admin(url, 'GET', 'tokens?tenant=nobody')).body, { tokens: [] });

  const noTenant = await admin(url, 'POST', 'tenants/nobody/tokens');
  t.equal(noTenant.status, 404);
  t.same(noTenant.body, { code: 'NOT_FOUND', error: 'No tenant is named "nobody"; create it first with POST /~admin/tenants.', name: '', requestVersion: '' });

  const published = await put(url, 'publish-greeting/1.0.0', await packed(GREETING), { token: created.body.token });
  t.equal(published.status, 201);
  t.same(published.body, { ok: true, name: 'publish-greeting', version: '1.0.0' });
  t.equal(registry.catalog.latest('publish-greeting')!.descriptor.oc.publisher!.tenant, 'greeters-two', 'the version belongs to the token\'s tenant');
  const outside = await put(url, 'shop-cart/1.0.0', await packed(GREETING), { token: created.body.token });
  t.equal(outside.status, 403);
  t.equal(outside.body.code, 'FORBIDDEN');
  // A component belongs to the tenant that published it, whatever other tokens' patterns cover.
  const taken = await put(url, 'publish-greeting/1.0.1', await packed(GREETING, '1.0.1'), { token: GREETERS_TOKEN });
  t.same([taken.status, taken.body.error], [403, 'Tenant "greeters" may not publish "publish-greeting": the name belongs to tenant "greeters-two".']);
  const configured = await put(url, 'publish-greeter/1.0.0', await packedAs('publish-greeter'), { token: GREETERS_TOKEN });
  t.equal(configured.status, 201, 'configured tokens keep working');

  const revoked = await admin(url, 'DELETE', `tokens/${created.body.id}`);
  t.equal(revoked.status, 200);
  t.match(revoked.body, { id: created.body.id, tenant: 'greeters-two' });
  t.match(revoked.body.revokedAt, ISO);
  t.equal((await admin(url, 'DELETE', `tokens/${created.body.id}`)).body.revokedAt, revoked.body.revokedAt, 'revoking again answers the first revocation');
  t.same((await admin(url, 'GET', 'tokens')).body.tokens[0].revokedAt, revoked.body.revokedAt);

  for (const token of [created.body.token, 'tsr_unknown']) {
    const refused = await put(url, 'publish-greeting/1.0.2', await packed(GREETING, '1.0.2'), { token });
    t.equal(refused.status, 401);
    t.same(refused.body, { code: 'UNAUTHORIZED', error: 'A valid publish token is required: send "Authorization: Bearer <token>".', name: 'publish-greeting', requestVersion: '1.0.2' });
  }
  const unknownId = await admin(url, 'DELETE', 'tokens/0123456789abcdef');
  t.equal(unknownId.status, 404);
  t.same(unknownId.body, { code: 'NOT_FOUND', error: 'No token has the id "0123456789abcdef".', name: '', requestVersion: '' });
});

t.test("a stored tenant's weight feeds the fair share, over the configured one", async (t) => {
  const weights = { heavy: 4, light: 2 };
  const { url, registry } = await startRegistry(t, [], (config) => {
    withAdmin(config);
    config.tenants.weights = weights;
  });
  await admin(url, 'POST', 'tenants', { name: 'light', components: ['light-*'], weight: 0.5 }, ADMIN_TOKEN);
  await admin(url, 'POST', 'tenants', { name: 'plain', components: ['plain-*'] }, ADMIN_TOKEN);
  const weightOf = tenantWeight(registry.tenants, weights);
  t.same(['light', 'heavy', 'plain', 'unknown'].map(weightOf), [0.5, 4, 1, 1]);
});
