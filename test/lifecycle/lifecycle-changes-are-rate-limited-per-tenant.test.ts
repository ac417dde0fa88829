import t from 'tap';
import { defaultConfig } from '../../src/config/config';
import { createRegistry } from '../../src/registry';
import { GREETERS_TOKEN, GREETING, SHOP_TOKEN } from '../publish/publish-helpers';
import { MINUTE_MS, startWithinOnePeriod } from '../helpers/clock-period';
import { request, startRegistry, type TenantComponent } from '../helpers/start-registry';
import { ADMIN_TOKEN, deprecate, lifecycleAudit, lifecycleTokens, undeprecate, unpublish } from './lifecycle-helpers';

const LIMIT = 2;

t.test("past its lifecycle changes per minute a tenant is refused on every replica, while another tenant's and the administrator's changes go on", async (t) => {
  const greeting: TenantComponent = { dir: GREETING, tenant: 'greeters', version: '1.0.0' };
  const shop: TenantComponent = { dir: GREETING, tenant: 'shop', name: 'shop-greeting', version: '1.0.0' };
  const first = await startRegistry(t, [greeting, { ...greeting, version: '1.1.0' }, shop], (config) => {
    lifecycleTokens(config);
    config.limits.lifecycleChangesPerMinute = LIMIT;
  });
  // A second replica over the same storage: the tenant's changes are counted there, not per replica.
  const config = defaultConfig();
  Object.assign(config, { port: 0, storagePath: first.storagePath, pollIntervalSeconds: 0 });
  Object.assign(config.limits, { sandboxHosts: 1, frontThreads: 1, lifecycleChangesPerMinute: LIMIT });
  lifecycleTokens(config);
  const secondRegistry = await createRegistry(config);
  const second = await secondRegistry.listen();
  t.teardown(() => secondRegistry.close());

  await startWithinOnePeriod(MINUTE_MS, 25_000);

  t.equal((await deprecate(first.url, 'publish-greeting/1.0.0', GREETERS_TOKEN, 'Use 1.1.0')).status, 200);
  t.equal((await undeprecate(second, 'publish-greeting/1.0.0', GREETERS_TOKEN)).status, 200, 'the undoing counts on the other replica');
  const refused = {
    code: 'QUOTA_EXCEEDED',
    error: `Tenant "greeters" may change the lifecycle of its versions ${LIMIT} time(s) per minute and has this minute; nothing was changed.`,
    details: { quota: 'lifecycleChangesPerMinute', limit: LIMIT, used: LIMIT },
  };
  const third = await deprecate(first.url, 'publish-greeting/1.0.0', GREETERS_TOKEN, 'Use 1.1.0');
  t.equal(third.status, 429);
  t.same(third.body, { ...refused, name: 'publish-greeting', requestVersion: '1.0.0' });
  const unpublishing = await unpublish(second, 'publish-greeting/1.1.0', GREETERS_TOKEN);
  t.equal(unpublishing.status, 429, 'an unpublish is a lifecycle change too');
  t.same(unpublishing.body, { ...refused, name: 'publish-greeting', requestVersion: '1.1.0' });

  const bystander = await deprecate(second, 'shop-greeting/1.0.0', SHOP_TOKEN, 'Moving on');
  t.equal(bystander.status, 200, "another tenant's deprecation succeeds meanwhile");
  t.equal(bystander.body.state, 'deprecated');
  const byAdmin = await deprecate(first.url, 'publish-greeting/1.0.0', ADMIN_TOKEN, 'Retired by the platform team');
  t.equal(byAdmin.status, 200, 'the administrator is not limited');

  t.equal((await request(`${second}publish-greeting/1.1.0?name=Ada`)).status, 200, 'the refused unpublish changed nothing');
  t.same(
    (await lifecycleAudit(secondRegistry.storage)).entries.map(({ action, tenant, component, details }) => [action, tenant, component, details]),
    [
      ['deprecate', 'greeters', 'publish-greeting@1.0.0', { message: 'Use 1.1.0' }],
      ['deprecate', 'greeters', 'publish-greeting@1.0.0', { deprecated: false }],
      ['deprecate', 'shop', 'shop-greeting@1.0.0', { message: 'Moving on' }],
      ['deprecate', null, 'publish-greeting@1.0.0', { message: 'Retired by the platform team' }],
    ],
    'the refused changes are not in the audit log',
  );
});
