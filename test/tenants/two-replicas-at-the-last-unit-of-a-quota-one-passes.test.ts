import t from 'tap';
import { GREETING, packed, put } from '../publish/publish-helpers';
import { startS3Registry } from '../helpers/start-s3-registry';
import { startS3Server } from '../helpers/s3-server';
import { HOUR_MS, startWithinOnePeriod } from '../helpers/clock-period';
import { admin, tenantWithToken, withAdmin } from './admin-helpers';

/**
 * Two replicas over one S3-protocol store (fauxqs ignores conditional writes: the create-only
 * records are decided by claims) publish at once when one unit of a quota is left: exactly one passes.
 */
t.test('two replicas publishing at once at the last unit of a quota: exactly one passes', async (t) => {
  const server = await startS3Server(t);
  const quotas = ['publishesPerHour', 'versionsPerComponent', 'storageBytes'] as const;
  // Each quota races on replicas and a prefix of its own: all at once.
  t.jobs = quotas.length;
  for (const quota of quotas) {
    t.test(quota, async (t) => {
      const options = { prefix: `quota-${quota}`, endpoint: server.endpoint, storage: { settleMs: 100 }, configure: withAdmin };
      const first = await startS3Registry(t, options);
      const second = await startS3Registry(t, options);
      const name = 'racers';
      const { token } = await tenantWithToken(first.url, { name, components: ['publish-greet*'] });
      // The hour's publishes: the first and the racing two must count in one clock hour.
      if (quota === 'publishesPerHour') await startWithinOnePeriod(HOUR_MS, 60_000);
      t.equal((await put(first.url, 'publish-greeting/1.0.0', await packed(GREETING), { token })).status, 201);
      const used = (await admin(first.url, 'GET', `tenants/${name}`)).body.usage;
      // One more unit left: a second publish's bytes fit, a third's do not.
      const limit = { publishesPerHour: 2, versionsPerComponent: 2, storageBytes: used.storageBytes * 2 + 10 }[quota];
      t.equal((await admin(first.url, 'PUT', `tenants/${name}`, { quotas: { [quota]: limit } })).status, 200);
      t.equal((await admin(second.url, 'GET', `tenants/${name}`)).body.quotas[quota], limit, 'the second replica reads the change');

      const [a, b] = await Promise.all([
        put(first.url, 'publish-greeting/1.0.1', await packed(GREETING, '1.0.1'), { token }),
        put(second.url, 'publish-greeting/1.0.2', await packed(GREETING, '1.0.2'), { token }),
      ]);
      t.same([a.status, b.status].sort(), [201, 429], `one passes, one is refused: ${a.text} ${b.text}`);
      const refused = a.status === 429 ? a : b;
      t.equal(refused.body.code, 'QUOTA_EXCEEDED');
      t.equal(refused.body.details.quota, quota);
      t.equal(refused.body.details.limit, limit);
      t.equal((await first.registry.storage.listVersions('publish-greeting')).length, 2, 'the refused version was not stored');
    });
  }
});
