import t, { type Test } from 'tap';
import { Catalog } from '../../src/catalog/catalog';
import { fileSystemStorage, s3Storage, storeCopies, type SharedStorage } from '../helpers/catalog-storages';
import { fixture } from '../helpers/start-registry';

const CHANGES = 24;

async function lifecycleChangesAreCompacted(t: Test, shared: SharedStorage): Promise<void> {
  // Each call of the clock a second later; an index every 10 changes, the journal kept 0 ms behind it (as every replica judges).
  let time = Date.now();
  const options = { indexEvery: 10, journalRetentionMs: 0, clock: () => (time += 1000) };
  await storeCopies(shared.open(), fixture('core-modes'), 'churn', 2, 2);
  const writer = new Catalog(shared.open(), { ...options, maintainsIndex: true });
  await writer.refresh();
  await writer.deprecate('churn-0', '1.0.1', { message: 'Before', date: '2026-11-27T07:00:00.000Z' });
  // A replica that read the journal up to here, then polled no more (its storage out of reach).
  const behind = new Catalog(shared.open(), options);
  await behind.refresh();
  t.same(behind.deprecationOf('churn-0', '1.0.1'), { message: 'Before', date: '2026-11-27T07:00:00.000Z' });
  const indexes = await shared.open().listRecords('index/');

  // One tenant deprecating and undoing, nothing else: no version is added.
  for (let i = 0; i < CHANGES; i++) await writer.deprecate('churn-0', '1.0.0', i % 2 === 0 ? { message: `Change ${i}`, date: '2026-11-27T08:00:00.000Z' } : undefined);
  await writer.deprecate('churn-1', '1.0.1', { message: 'Kept', date: '2026-11-27T09:00:00.000Z' });
  await writer.unpublish('churn-1', '1.0.0', { date: '2026-11-27T10:00:00.000Z', tenant: 'churners' });
  const journaled = (await shared.open().listRecords('changes/')).length;
  t.equal(journaled, 1 + CHANGES + 2, 'every lifecycle change in the journal');

  await writer.refresh();
  const compacted = await shared.open().listRecords('changes/');
  t.notSame(await shared.open().listRecords('index/'), indexes, 'lifecycle changes alone wrote an index');
  t.ok(compacted.length < journaled / 4, `the journal behind it pruned: ${journaled} entries, then ${compacted.length}`);

  await behind.refresh();
  t.same(behind.versions('churn-1'), ['1.0.1'], 'a replica that was behind drops the unpublished version');
  t.throws(() => behind.resolve('churn-1', '1.0.0'), { code: 'GONE' });
  t.same(behind.deprecationOf('churn-1', '1.0.1'), { message: 'Kept', date: '2026-11-27T09:00:00.000Z' }, 'sees the deprecation');
  t.equal(behind.deprecationOf('churn-0', '1.0.0'), undefined, 'and the last undoing');
  t.same(behind.versions('churn-0'), ['1.0.0', '1.0.1']);
}

t.test('on the file system, a journal of lifecycle changes alone is compacted into an index; a replica that was behind sees every change', async (t) => {
  await lifecycleChangesAreCompacted(t, await fileSystemStorage(t));
});

t.test('on S3, a journal of lifecycle changes alone is compacted into an index; a replica that was behind sees every change', async (t) => {
  await lifecycleChangesAreCompacted(t, await s3Storage(t, 'compaction'));
});

t.test('a few lifecycle changes, far below the count, are compacted once the first is older than indexMaxAgeMs', async (t) => {
  const shared = await fileSystemStorage(t);
  let time = Date.parse('2026-11-27T08:00:00.000Z');
  const options = { indexEvery: 1000, indexMaxAgeMs: 60_000, journalRetentionMs: 0, clock: () => time };
  await storeCopies(shared.open(), fixture('core-modes'), 'quiet', 1, 2);
  const writer = new Catalog(shared.open(), { ...options, maintainsIndex: true });
  await writer.refresh();
  const indexes = await shared.open().listRecords('index/');

  await writer.deprecate('quiet-0', '1.0.0', { message: 'Old', date: '2026-11-27T08:00:00.000Z' });
  await writer.deprecate('quiet-0', '1.0.1', { message: 'Older', date: '2026-11-27T08:00:00.000Z' });
  // The age counts from the poll that first read a change (a replica's own changes are read back so).
  await writer.refresh();
  time += 59_000;
  await writer.refresh();
  t.same(await shared.open().listRecords('index/'), indexes, 'two changes read 59 s ago: no index yet');
  t.equal((await shared.open().listRecords('changes/')).length, 2, 'both changes in the journal');

  time += 1_000;
  await writer.refresh();
  t.notSame(await shared.open().listRecords('index/'), indexes, 'the first change read a minute ago: an index is written');

  const reader = new Catalog(shared.open(), options);
  await reader.refresh();
  t.same([reader.deprecationOf('quiet-0', '1.0.0')?.message, reader.deprecationOf('quiet-0', '1.0.1')?.message], ['Old', 'Older'], 'a new replica reads both from the index');
});
