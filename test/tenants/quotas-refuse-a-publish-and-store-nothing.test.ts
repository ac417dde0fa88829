import t from 'tap';
import { GREETING, packed, packedAs, put, startPublishRegistry } from '../publish/publish-helpers';
import { request } from '../helpers/start-registry';
import { HOUR_MS, startWithinOnePeriod } from '../helpers/clock-period';
import { admin, tenantWithToken, withAdmin } from './admin-helpers';

const refusal = (version: string, error: string, details: Record<string, unknown>, name = 'publish-greeting') => ({ code: 'QUOTA_EXCEEDED', error, name, requestVersion: version, details });

t.test('each quota refuses the publish past it with a coded answer naming it, and nothing is stored', async (t) => {
  const { url, registry } = await startPublishRegistry(t, withAdmin);
  const stored = async () => registry.storage.listVersions('publish-greeting');

  const hourly = await tenantWithToken(url, { name: 'hourly', components: ['publish-greet*'], quotas: { publishesPerHour: 1 } });
  await startWithinOnePeriod(HOUR_MS, 60_000);
  t.equal((await put(url, 'publish-greeting/1.0.0', await packed(GREETING), { token: hourly.token })).status, 201);
  const overHour = await put(url, 'publish-greeting/1.0.1', await packed(GREETING, '1.0.1'), { token: hourly.token });
  t.equal(overHour.status, 429);
  t.same(overHour.body, refusal('1.0.1', 'Tenant "hourly" may publish 1 time(s) per hour and has this hour; nothing was stored.', { quota: 'publishesPerHour', limit: 1, used: 1 }));
  t.same(await stored(), ['1.0.0']);

  // Each tenant its own component: a component belongs to the tenant that published it.
  const versions = await tenantWithToken(url, { name: 'versions', components: ['publish-greeter'], quotas: { versionsPerComponent: 2 } });
  for (const version of ['1.0.0', '1.1.0']) t.equal((await put(url, `publish-greeter/${version}`, await packedAs('publish-greeter', version), { token: versions.token })).status, 201);
  const overVersions = await put(url, 'publish-greeter/1.2.0', await packedAs('publish-greeter', '1.2.0'), { token: versions.token });
  t.equal(overVersions.status, 429);
  t.same(overVersions.body, refusal('1.2.0', 'Tenant "versions" may keep 2 version(s) of each component and this one has them; nothing was stored.', { quota: 'versionsPerComponent', limit: 2, used: 2 }, 'publish-greeter'));
  t.same((await registry.storage.listVersions('publish-greeter')).sort(), ['1.0.0', '1.1.0']);

  const bytes = await tenantWithToken(url, { name: 'bytes', components: ['publish-greetings'], quotas: { storageBytes: 100, publishesPerHour: 10 } });
  const overBytes = await put(url, 'publish-greetings/1.3.0', await packedAs('publish-greetings', '1.3.0'), { token: bytes.token });
  t.equal(overBytes.status, 429);
  t.same(overBytes.body, refusal('1.3.0', 'Tenant "bytes" may store 100 bytes of packages and this publish would pass that; nothing was stored.', { quota: 'storageBytes', limit: 100, used: 0 }, 'publish-greetings'));
  t.same(await registry.storage.listVersions('publish-greetings'), []);
  t.equal((await request(`${url}publish-greetings/1.3.0`)).status, 404);
  t.same(await stored(), ['1.0.0']);
  const shown = await admin(url, 'GET', 'tenants/bytes');
  t.same(shown.body.usage, { storageBytes: 0, publishesThisHour: 0, versions: 0, liveTokens: 1 }, 'the publish ticket taken before the refusal was given back');

  const hourlyShown = await admin(url, 'GET', 'tenants/hourly');
  t.equal(hourlyShown.body.usage.publishesThisHour, 1);
  t.equal(hourlyShown.body.usage.versions, 1);
  t.ok(hourlyShown.body.usage.storageBytes > 100, 'the stored bytes are counted');
  const metrics = await request(`${url}metrics`);
  t.match(metrics.text, new RegExp(`^tessera_tenant_storage_bytes\\{tenant="hourly"\\} ${hourlyShown.body.usage.storageBytes}$`, 'm'));
  t.match(metrics.text, /^tessera_tenant_versions\{tenant="versions"\} 2$/m);
  t.match(metrics.text, /^tessera_tenant_publishes_this_hour\{tenant="hourly"\} 1$/m);
});

t.test('an unpublished version no longer counts toward its tenant\'s versions per component', async (t) => {
  const { url } = await startPublishRegistry(t, withAdmin);
  const team = await tenantWithToken(url, { name: 'team', components: ['publish-greet*'], quotas: { versionsPerComponent: 1 } });
  t.equal((await put(url, 'publish-greeting/1.0.0', await packed(GREETING), { token: team.token })).status, 201);
  t.equal((await put(url, 'publish-greeting/1.0.1', await packed(GREETING, '1.0.1'), { token: team.token })).status, 429, 'the quota is full');
  const unpublished = await request(`${url}publish-greeting/1.0.0`, { method: 'DELETE', headers: { authorization: `Bearer ${team.token}` } });
  t.same([unpublished.status, unpublished.body], [200, { ok: true, name: 'publish-greeting', version: '1.0.0', state: 'unpublished' }], 'its tenant unpublishes it');
  t.equal((await put(url, 'publish-greeting/1.0.1', await packed(GREETING, '1.0.1'), { token: team.token })).status, 201, 'the version it held is free again');
});
