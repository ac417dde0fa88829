import { createHash } from 'node:crypto';
import t from 'tap';
import { GREETING, packed, put, startPublishRegistry } from '../publish/publish-helpers';
import { admin, withAdmin } from './admin-helpers';

t.test('every tenant and token change and every publish is in the audit log, in order, paged and filtered', async (t) => {
  const { url } = await startPublishRegistry(t, withAdmin);
  await admin(url, 'POST', 'tenants', { name: 'greeters', components: ['publish-greet*'], quotas: { publishesPerHour: 9 } });
  const token = (await admin(url, 'POST', 'tenants/greeters/tokens')).body;
  const tarball = await packed(GREETING);
  t.equal((await put(url, 'publish-greeting/1.0.0', tarball, { token: token.token })).status, 201);
  await admin(url, 'PUT', 'tenants/greeters', { weight: 2 });
  await admin(url, 'DELETE', `tokens/${token.id}`);
  await admin(url, 'POST', 'tenants', { name: 'shop', components: ['shop-*'] });

  const all = await admin(url, 'GET', 'audit');
  t.equal(all.status, 200);
  const entries = all.body.entries;
  t.same(
    entries.map((entry: { action: string; tenant: string }) => `${entry.action} ${entry.tenant}`),
    ['tenant-create greeters', 'token-create greeters', 'publish greeters', 'tenant-update greeters', 'token-revoke greeters', 'tenant-create shop'],
  );
  t.same(entries[0], {
    time: entries[0].time,
    action: 'tenant-create',
    tenant: 'greeters',
    tokenId: 'admin',
    client: '127.0.0.1',
    details: { components: ['publish-greet*'], quotas: { publishesPerHour: 9 } },
  });
  t.same(entries[1].details, { token: token.id });
  t.same(entries[2], {
    time: entries[2].time,
    action: 'publish',
    tenant: 'greeters',
    tokenId: token.id,
    component: 'publish-greeting@1.0.0',
    sha256: createHash('sha256').update(tarball).digest('hex'),
    client: '127.0.0.1',
  });
  t.same(entries[4].details, { token: token.id });
  t.notOk(all.text.includes(token.token), 'no secret in the log');
  t.equal(all.body.next, undefined);

  const first = await admin(url, 'GET', 'audit?limit=4');
  t.same(first.body.entries, entries.slice(0, 4));
  t.match(first.body.next, /^audit\//);
  const second = await admin(url, 'GET', `audit?limit=4&after=${encodeURIComponent(first.body.next)}`);
  t.same(second.body, { entries: entries.slice(4) });

  t.same((await admin(url, 'GET', 'audit?tenant=shop')).body.entries, [entries[5]]);
  t.same((await admin(url, 'GET', 'audit?component=publish-greeting')).body.entries, [entries[2]]);
  const badLimit = await admin(url, 'GET', 'audit?limit=0');
  t.equal(badLimit.status, 400);
  t.same(badLimit.body, {
    code: 'NOT_VALID_REQUEST',
    error: 'The request parameters are not valid: querystring/limit must be >= 1.',
    name: '',
    requestVersion: '',
    details: { parameters: [{ name: 'limit', problem: 'must be >= 1' }] },
  });
});
