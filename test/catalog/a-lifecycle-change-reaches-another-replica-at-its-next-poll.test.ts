import t, { type Test } from 'tap';
import { Catalog } from '../../src/catalog/catalog';
import { fileSystemStorage, s3Storage, storeCopies, type SharedStorage } from '../helpers/catalog-storages';
import { countingStorage } from '../helpers/counting-storage';
import { fixture } from '../helpers/start-registry';

async function lifecycleReachesReaders(t: Test, shared: SharedStorage): Promise<void> {
  const writer = new Catalog(shared.open(), { maintainsIndex: true });
  await storeCopies(shared.open(), fixture('core-modes'), 'life', 2, 3);
  await writer.refresh();
  const counted = countingStorage(shared.open());
  const reader = new Catalog(counted.storage);
  await reader.refresh();
  t.equal(reader.resolve('life-0', '').version, '1.0.2');

  await writer.unpublish('life-0', '1.0.2', { date: new Date().toISOString(), tenant: 'greeters' });
  await writer.deprecate('life-1', '1.0.0', { message: 'Use 1.0.2', date: '2026-11-27T08:00:00.000Z' });
  counted.reset();
  await reader.refresh();
  t.same(counted.calls, { listRecords: 2, readRecord: 4 }, 'the journal, the indexes, and the two records of each version changed');
  t.equal(reader.resolve('life-0', '').version, '1.0.1', 'latest leaves the unpublished version');
  t.same(reader.versions('life-0'), ['1.0.0', '1.0.1']);
  t.throws(() => reader.resolve('life-0', '1.0.2'), { code: 'GONE', status: 410 });
  t.same(reader.deprecationOf('life-1', '1.0.0'), { message: 'Use 1.0.2', date: '2026-11-27T08:00:00.000Z' });

  counted.reset();
  await reader.refresh();
  t.same(counted.calls, { listRecords: 2 }, 'an entry listed again (the journal window) is not read again');

  await writer.deprecate('life-1', '1.0.0', undefined);
  await reader.refresh();
  t.equal(reader.deprecationOf('life-1', '1.0.0'), undefined, 'a deprecation taken back');

  // A replica started now reads the tombstone and the deprecations at its start.
  await writer.deprecate('life-1', '1.0.1', { message: 'Old', date: '2026-11-27T09:00:00.000Z' });
  const late = new Catalog(shared.open());
  await late.refresh();
  t.same(late.versions('life-0'), ['1.0.0', '1.0.1']);
  t.ok(late.isUnpublished('life-0', '1.0.2'));
  t.same(late.deprecationOf('life-1', '1.0.1'), { message: 'Old', date: '2026-11-27T09:00:00.000Z' });
  t.equal(late.deprecationOf('life-1', '1.0.0'), undefined);
}

t.test('on the file system, an unpublish and a deprecation reach another replica at its next poll and one started later', async (t) => {
  await lifecycleReachesReaders(t, await fileSystemStorage(t));
});

t.test('on S3, an unpublish and a deprecation reach another replica at its next poll and one started later', async (t) => {
  await lifecycleReachesReaders(t, await s3Storage(t, 'lifecycle-catalog'));
});
