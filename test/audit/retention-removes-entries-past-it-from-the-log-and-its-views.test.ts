import t from 'tap';
import { AuditLog } from '../../src/audit/audit-log';
import { AuditMaintenance } from '../../src/audit/audit-maintenance';
import { fileSystemStorage, s3Storage, type SharedStorage } from '../helpers/catalog-storages';

const DAY_MS = 24 * 60 * 60 * 1000;

for (const kind of ['file system', 'S3'] as const) {
  t.test(`${kind}: retention deletes the entries past it from the log and its views; entries written before the views are moved into them`, async (t) => {
    const shared: SharedStorage = kind === 'S3' ? await s3Storage(t, 'audit-retention') : await fileSystemStorage(t);
    const storage = shared.open();
    const today = Date.UTC(2026, 10, 27, 12, 0, 0);
    let now = today - 400 * DAY_MS;
    const log = new AuditLog(storage, () => now);
    await log.append({ action: 'publish', tenant: 'old', tokenId: 'config:old', component: 'old-card@1.0.0' });
    now = today - 40 * DAY_MS;
    await log.append({ action: 'deprecate', tenant: 'old', tokenId: 'config:old', component: 'old-card@1.0.0', details: { message: 'Gone soon' } });
    now = today - DAY_MS;
    await log.append({ action: 'deprecate', tenant: 'kept', tokenId: 'config:kept', component: 'kept-card@1.0.0', details: { message: 'Recent' } });
    // As a registry before the views wrote it: in the log only, without its day.
    const legacy = { time: new Date(today - 2 * DAY_MS).toISOString(), action: 'unpublish', tenant: 'kept', tokenId: 'config:kept', component: 'kept-card@0.9.0' };
    await storage.putRecord(`audit/${String(today - 2 * DAY_MS).padStart(15, '0')}-0123456789ab`, Buffer.from(JSON.stringify(legacy)));

    const maintenance = new AuditMaintenance(shared.open(), { retentionDays: 30, clock: () => today });
    t.same(await maintenance.run(), { moved: 1, deleted: 2 });
    t.same(
      (await log.read({ limit: 10 })).entries.map((entry) => [entry.action, entry.component]),
      [
        ['unpublish', 'kept-card@0.9.0'],
        ['deprecate', 'kept-card@1.0.0'],
      ],
      'what is within 30 days stays, in order',
    );
    t.same((await log.read({ tenant: 'kept', limit: 10 })).entries.map((entry) => entry.action), ['unpublish', 'deprecate'], 'the moved entry is in its tenant\'s view');
    t.same((await log.read({ component: 'kept-card', limit: 10 })).entries[0], legacy, "and its component's, as it was written");
    t.same((await log.read({ tenant: 'old', limit: 10 })).entries, [], 'no view keeps what the log deleted');
    t.same(await storage.listRecords('audit-by-component/old-card/'), []);
    t.same(await maintenance.run(), { moved: 0, deleted: 0 }, 'a pass at most every hour');

    const forever = new AuditMaintenance(shared.open(), { retentionDays: 0, clock: () => today + 1000 * DAY_MS });
    t.same(await forever.run(), { moved: 0, deleted: 0 }, '0 keeps every entry');
    t.equal((await log.read({ limit: 10 })).entries.length, 2);
  });
}
