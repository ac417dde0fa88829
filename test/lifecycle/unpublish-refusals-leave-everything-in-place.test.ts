import t from 'tap';
import { GREETERS_TOKEN, GREETING, packed, packagedFiles, put, SHOP_TOKEN, startPublishRegistry } from '../publish/publish-helpers';
import { request } from '../helpers/start-registry';
import { ADMIN_TOKEN, lifecycleRecords, lifecycleTokens, unpublish, lifecycleAudit } from './lifecycle-helpers';

const HOUR_MS = 60 * 60 * 1000;

t.test('refused unpublishes answer coded errors and write nothing; the administrator unpublishes past the window', async (t) => {
  const started = await startPublishRegistry(t, lifecycleTokens);
  const { url } = started;
  const storage = started.registry.storage;
  t.equal((await put(url, 'publish-greeting/1.0.0', await packed(GREETING, '1.0.0'))).status, 201);
  // Published by the greeters 73 hours ago (written as a publish thread would, with an older date).
  const old = await packagedFiles(GREETING, '0.9.0');
  const descriptor = JSON.parse(old.get('package.json')!.toString());
  descriptor.oc.publisher = { tenant: 'greeters', date: Date.now() - 73 * HOUR_MS };
  old.set('package.json', Buffer.from(JSON.stringify(descriptor)));
  await storage.writeVersion('publish-greeting', '0.9.0', old);
  const nothingWritten = await lifecycleRecords(storage);
  t.same(nothingWritten, { unpublished: [], deprecations: [], audit: 0, lifecycleEntries: [] });

  const refusals: Array<[string, string | undefined, number, string, string]> = [
    [
      '1.0.0',
      undefined,
      401,
      'UNAUTHORIZED',
      'A valid token is required: send "Authorization: Bearer <token>" with a publish token of the tenant that published the version, or the administrator\'s.',
    ],
    [
      '1.0.0',
      'revoked-or-unknown-token',
      401,
      'UNAUTHORIZED',
      'A valid token is required: send "Authorization: Bearer <token>" with a publish token of the tenant that published the version, or the administrator\'s.',
    ],
    ['1.0.0', SHOP_TOKEN, 403, 'FORBIDDEN', 'Tenant "shop" may not unpublish publish-greeting@1.0.0: it belongs to tenant "greeters".'],
    ['2.0.0', GREETERS_TOKEN, 404, 'NOT_FOUND', 'publish-greeting@2.0.0 is not published on this registry.'],
    [
      '0.9.0',
      GREETERS_TOKEN,
      403,
      'FORBIDDEN',
      'publish-greeting@0.9.0 was published more than 72 hours ago (unpublishWindowHours): past that window only the administrator may unpublish it.',
    ],
  ];
  for (const [version, token, status, code, error] of refusals) {
    const answer = await unpublish(url, `publish-greeting/${version}`, token);
    t.equal(answer.status, status, `${version} with ${token ?? 'no token'}`);
    t.same(answer.body, { code, error, name: 'publish-greeting', requestVersion: version });
  }
  t.same(await lifecycleRecords(storage), nothingWritten, 'no tombstone, journal entry or audit entry');
  t.same((await request(`${url}publish-greeting/~info`)).body.allVersions, ['0.9.0', '1.0.0'], 'both versions still served');
  t.equal((await request(`${url}publish-greeting/0.9.0?name=Ada`)).status, 200);

  const byAdmin = await unpublish(url, 'publish-greeting/0.9.0', ADMIN_TOKEN);
  t.equal(byAdmin.status, 200, 'the administrator may at any time');
  t.same(byAdmin.body, { ok: true, name: 'publish-greeting', version: '0.9.0', state: 'unpublished' });
  t.equal((await request(`${url}publish-greeting/0.9.0`)).status, 410);
  const adminOnShop = await unpublish(url, 'publish-greeting/1.0.0', ADMIN_TOKEN);
  t.equal(adminOnShop.status, 200, "and any tenant's version");
  t.same((await request(`${url}publish-greeting`)).body, {
    code: 'NOT_FOUND',
    error: 'Component "publish-greeting" is not published on this registry.',
    name: 'publish-greeting',
    requestVersion: '',
  }, 'no version left: the component is unknown');

  const audit = await lifecycleAudit(storage);
  t.same(
    audit.entries.map(({ action, tenant, tokenId, component }) => ({ action, tenant, tokenId, component })),
    [
      { action: 'unpublish', tenant: null, tokenId: 'admin', component: 'publish-greeting@0.9.0' },
      { action: 'unpublish', tenant: null, tokenId: 'admin', component: 'publish-greeting@1.0.0' },
    ],
  );
});

t.test('without an administrator token configured, no token is the administrator', async (t) => {
  const { url } = await startPublishRegistry(t);
  t.equal((await put(url, 'publish-greeting/1.0.0', await packed(GREETING, '1.0.0'))).status, 201);
  const answer = await unpublish(url, 'publish-greeting/1.0.0', ADMIN_TOKEN);
  t.equal(answer.status, 401);
  t.equal(answer.body.code, 'UNAUTHORIZED');
});
