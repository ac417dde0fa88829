import t from 'tap';
import { AuditLog } from '../../src/audit/audit-log';
import { fileSystemStorage, s3Storage, type SharedStorage } from '../helpers/catalog-storages';
import { countingStorage } from '../helpers/counting-storage';

const NOISY = 150;

for (const kind of ['file system', 'S3'] as const) {
  t.test(`${kind}: a page of one tenant's or one component's entries reads that page, not the log, in the log's order`, async (t) => {
    const shared: SharedStorage = kind === 'S3' ? await s3Storage(t, 'audit-views') : await fileSystemStorage(t);
    let now = Date.UTC(2026, 10, 27, 23, 59, 59, 900);
    const clock = () => (now += 7);
    const log = new AuditLog(shared.open(), clock);
    // The quiet tenant's entries, then another tenant's churn (across midnight), then the quiet one's last.
    await log.append({ action: 'publish', tenant: 'quiet', tokenId: 'config:quiet', component: 'quiet-card@1.0.0', sha256: 'a'.repeat(64) });
    await log.append({ action: 'deprecate', tenant: 'quiet', tokenId: 'config:quiet', component: 'quiet-card@1.0.0', details: { message: 'Old' } });
    for (let i = 0; i < NOISY; i++) await log.append({ action: 'deprecate', tenant: 'noisy', tokenId: 'config:noisy', component: `noisy-${i % 3}@1.0.0`, details: { deprecated: false } });
    await log.append({ action: 'tenant-update', tenant: null, tokenId: 'admin' });
    await log.append({ action: 'unpublish', tenant: 'quiet', tokenId: 'config:quiet', component: 'quiet-card@1.0.0' });

    const counted = countingStorage(shared.open());
    const reader = new AuditLog(counted.storage);
    const first = await reader.read({ tenant: 'quiet', limit: 2 });
    t.same(first.entries.map((entry) => entry.action), ['publish', 'deprecate']);
    t.equal(counted.calls.readRecord, 2, `two entries read for a page of two, of ${NOISY + 4}`);
    counted.reset();
    const second = await reader.read({ tenant: 'quiet', limit: 2, after: first.next });
    t.same(second.entries.map((entry) => [entry.action, entry.time]), [['unpublish', '2026-11-28T00:00:00.978Z']], 'the next page, after the other tenant\'s churn');
    t.equal(second.next, undefined);
    t.equal(counted.calls.readRecord, 1, 'one entry read');

    counted.reset();
    const component = await reader.read({ component: 'quiet-card', limit: 10 });
    t.same(component.entries.map((entry) => entry.action), ['publish', 'deprecate', 'unpublish'], "a component's entries");
    t.equal(counted.calls.readRecord, 3);
    t.same((await reader.read({ component: 'noisy-1', tenant: 'noisy', limit: 100 })).entries.length, NOISY / 3, 'both narrowings');
    t.same((await reader.read({ component: '../tenants', limit: 10 })).entries, [], 'a name no component has reads nothing');

    // The whole log keeps its order, and its `next` goes on in a narrowed page (and the other way round).
    counted.reset();
    const all = await reader.read({ limit: NOISY + 10 });
    t.equal(all.entries.length, NOISY + 4);
    t.same(all.entries.map((entry) => entry.time), [...all.entries.map((entry) => entry.time)].sort(), 'in the order recorded');
    t.same([all.entries[0]!.tenant, all.entries.at(-2)!.tenant, all.entries.at(-1)!.action], ['quiet', null, 'unpublish']);
    const globalPage = await reader.read({ limit: 20 });
    t.match(globalPage.next, /^audit\/2026-11-28\/\d{15}-[0-9a-f]{12}$/);
    t.same((await reader.read({ tenant: 'quiet', limit: 5, after: globalPage.next })).entries.map((entry) => entry.action), ['unpublish'], "a log page's next, in a tenant's view");
    t.same((await reader.read({ limit: 1, after: first.next })).entries[0]!.tenant, 'noisy', "a tenant page's next, in the whole log");
  });
}
