import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { FileSystemStorage } from '../../src/storage/fs-storage';
import { hourOf } from '../../src/tenants/quota-folders';
import { reserveQuotas } from '../../src/tenants/reserve-quotas';

/**
 * Every quota is looked at before any unit is taken: a publish refused for its versions per
 * component takes none of the hour's publishes, which a valid publish racing it could need (it was
 * taken and given back, and a publish at the last unit meanwhile was refused 429 falsely).
 */
t.test('a publish refused by one quota creates no unit of another', async (t) => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'tessera-quota-order-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  const storage = new FileSystemStorage(folder);
  const created: string[] = [];
  const createRecord = storage.createRecord.bind(storage);
  storage.createRecord = async (key, content) => {
    created.push(key.replace(/\d{6,}$/, 'N'));
    return createRecord(key, content);
  };
  const quotas = { versionsPerComponent: 1, publishesPerHour: 2, storageBytes: 1000 };
  const claim = { tenant: 'team-q', name: 'cart', version: '1.0.0', bytes: 100 };
  // Every publish of the test in one clock hour, whenever it runs.
  const now = Date.now();
  await reserveQuotas(storage, quotas, claim, now);
  t.same(created.sort(), ['quota/team-q/bytes/N', `quota/team-q/publishes/${hourOf(now)}-N`, 'quota/team-q/versions/cart/N'].sort());

  for (const [refused, quota] of [
    [{ ...claim, version: '1.0.1' }, 'versionsPerComponent'],
    [{ ...claim, name: 'list', bytes: 950 }, 'storageBytes'],
  ] as const) {
    created.length = 0;
    await t.rejects(reserveQuotas(storage, quotas, refused, now), { code: 'QUOTA_EXCEEDED', details: { quota } }, quota);
    t.same(created, [], `refused for ${quota}: no unit of any quota was created`);
  }
  // The hour's second publish is still there for a valid one.
  await reserveQuotas(storage, quotas, { ...claim, name: 'list' }, now);
});
