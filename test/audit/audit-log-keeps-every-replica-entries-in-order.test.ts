import t from 'tap';
import { AuditLog } from '../../src/audit/audit-log';
import { fileSystemStorage, s3Storage, type SharedStorage } from '../helpers/catalog-storages';

for (const kind of ['file system', 'S3'] as const) {
  t.test(`${kind}: entries of two replicas read back in the order they were recorded, paged and filtered`, async (t) => {
    const shared: SharedStorage = kind === 'S3' ? await s3Storage(t, 'audit-test') : await fileSystemStorage(t);
    let now = Date.UTC(2026, 10, 27, 8, 0, 0);
    const clock = () => now++;
    const first = new AuditLog(shared.open(), clock);
    const second = new AuditLog(shared.open(), clock);
    await first.append({ action: 'tenant-create', tenant: 'checkout', tokenId: 'admin', details: { components: ['checkout-*'] } });
    await second.append({ action: 'publish', tenant: 'checkout', tokenId: 'tok_1', component: 'checkout-cart@1.0.0', sha256: 'a'.repeat(64), client: '127.0.0.1' });
    await Promise.all([
      first.append({ action: 'publish', tenant: 'search', tokenId: 'config:search', component: 'search-box@2.0.0', sha256: 'b'.repeat(64), client: '127.0.0.2' }),
      second.append({ action: 'deprecate', tenant: 'checkout', tokenId: 'tok_1', component: 'checkout-cart@1.0.0', details: { message: 'Use 2.x' } }),
    ]);

    const all = await first.read({ limit: 10 });
    t.same(
      all.entries.map((entry) => [entry.time, entry.action, entry.component ?? null]),
      [
        ['2026-11-27T08:00:00.000Z', 'tenant-create', null],
        ['2026-11-27T08:00:00.001Z', 'publish', 'checkout-cart@1.0.0'],
        ['2026-11-27T08:00:00.002Z', 'publish', 'search-box@2.0.0'],
        ['2026-11-27T08:00:00.003Z', 'deprecate', 'checkout-cart@1.0.0'],
      ],
      'every entry, both replicas, in order',
    );
    t.equal(all.next, undefined, 'no further page');
    t.same(all.entries[1], {
      time: '2026-11-27T08:00:00.001Z',
      action: 'publish',
      tenant: 'checkout',
      tokenId: 'tok_1',
      component: 'checkout-cart@1.0.0',
      sha256: 'a'.repeat(64),
      client: '127.0.0.1',
    });

    const page1 = await second.read({ limit: 2 });
    const page2 = await second.read({ limit: 2, after: page1.next });
    t.same([...page1.entries, ...page2.entries], all.entries, 'two pages hold the same entries');
    t.same((await second.read({ limit: 10, tenant: 'search' })).entries.map((entry) => entry.component), ['search-box@2.0.0'], 'by tenant');
    t.same((await second.read({ limit: 10, component: 'checkout-cart' })).entries.map((entry) => entry.action), ['publish', 'deprecate'], 'by component');
    t.same((await second.read({ limit: 10, component: 'checkout' })).entries, [], 'a component name is matched whole, not as a prefix');
  });
}
