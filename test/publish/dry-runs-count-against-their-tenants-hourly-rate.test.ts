import t from 'tap';
import { HOUR_MS, startWithinOnePeriod } from '../helpers/clock-period';
import { filesUnder } from '../helpers/files-under';
import { GREETING, SHOP_TOKEN, packed, packedAs, put, startPublishRegistry } from './publish-helpers';

/**
 * A dry run costs a publish thread what a publish costs and stores nothing: each tenant may ask for
 * `limits.dryRunsPerHour` of them per clock hour, counted in storage before the upload is read,
 * whatever each answered. Another tenant's dry runs, and the tenant's own publishes, are not held
 * by it.
 */
t.test('past its dry runs of the hour, a tenant is refused 429 QUOTA_EXCEEDED before its upload is read', async (t) => {
  const { url, storagePath } = await startPublishRegistry(t, (config) => {
    config.limits.dryRunsPerHour = 2;
  });
  const greeting = await packed(GREETING);
  const dry = { query: '?dryRun=true' };
  await startWithinOnePeriod(HOUR_MS, 60_000);
  t.equal((await put(url, 'publish-greeting/1.0.0', greeting, dry)).status, 200);
  t.equal((await put(url, 'publish-greeting/1.0.0', Buffer.from('not a package'), dry)).status, 400, 'a refused dry run counts too');

  const third = await put(url, 'publish-greeting/1.0.0', greeting, dry);
  t.equal(third.status, 429);
  t.same(third.body, {
    code: 'QUOTA_EXCEEDED',
    error: 'Tenant "greeters" may ask for 2 dry run(s) per hour and has this hour; publish, or retry next hour.',
    name: 'publish-greeting',
    requestVersion: '1.0.0',
    details: { quota: 'dryRunsPerHour', limit: 2, used: 2 },
  });

  const shop = await put(url, 'shop-greeting/1.0.0', await packedAs('shop-greeting'), { token: SHOP_TOKEN, query: '?dryRun=true' });
  t.equal(shop.status, 200, "another tenant's dry runs are its own");
  t.equal((await put(url, 'publish-greeting/1.0.0', greeting)).status, 201, 'a publish is not a dry run');
  t.same(
    (await filesUnder(storagePath)).filter((file) => file.includes('dry-runs')).map((file) => file.replace(/\d{4}-\d\d-\d\dT\d\d/, '<hour>')),
    ['catalog/quota/greeters/dry-runs/<hour>-000000', 'catalog/quota/greeters/dry-runs/<hour>-000001', 'catalog/quota/shop/dry-runs/<hour>-000000'],
  );
});
