import t, { type Test } from 'tap';
import { fileSystemStorage, s3Storage, type SharedStorage } from '../helpers/catalog-storages';

async function recordsAndFileChecks(t: Test, shared: SharedStorage): Promise<void> {
  const storage = shared.open();
  t.same(await storage.listRecords('changes/'), [], 'no records yet');
  t.equal(await storage.readRecord('changes/none'), undefined);
  for (const key of ['changes/0003-c', 'changes/0001-a', 'changes/0002-b', 'index/0001-x.json.gz']) await storage.putRecord(key, Buffer.from(key));
  t.same(await storage.listRecords('changes/'), ['changes/0001-a', 'changes/0002-b', 'changes/0003-c'], 'a folder, in key order');
  t.same(await storage.listRecords('changes/', 'changes/0001-a'), ['changes/0002-b', 'changes/0003-c'], 'after a key');
  t.same(await storage.listRecords('changes/', 'changes/0002'), ['changes/0002-b', 'changes/0003-c'], 'after a prefix of keys');
  t.equal((await shared.open().readRecord('changes/0002-b'))?.toString(), 'changes/0002-b', 'read back by another adapter');
  await storage.putRecord('changes/0002-b', Buffer.from('again'));
  t.equal((await storage.readRecord('changes/0002-b'))?.toString(), 'again', 'written again whole');
  await storage.deleteRecords(['changes/0001-a', 'changes/0009-never-written']);
  t.same(await storage.listRecords('changes/'), ['changes/0002-b', 'changes/0003-c'], 'deleted; one never written is no error');
  t.same(await storage.listRecords('index/'), ['index/0001-x.json.gz']);

  await storage.writeVersion('checked', '1.0.0', new Map([['package.json', Buffer.from('{}')], ['public/a.css', Buffer.from('a')]]));
  t.equal(await storage.hasFile('checked', '1.0.0', 'public/a.css'), true);
  t.equal(await storage.hasFile('checked', '1.0.0', 'template.js'), false, 'a file the version does not have');
  t.equal(await storage.hasFile('checked', '1.0.0', 'public'), false, 'a folder is not a file');
  t.equal(await storage.hasFile('checked', '1.0.0', '../../other/1.0.0/package.json'), false, 'nothing outside the version');
  t.equal(await storage.hasFile('checked', '2.0.0', 'package.json'), false, 'a version never published');
}

t.test("the file system's catalog records and file checks", async (t) => {
  const shared = await fileSystemStorage(t);
  await recordsAndFileChecks(t, shared);
  await t.rejects(shared.open().putRecord('../escaped', Buffer.alloc(0)), { message: 'The record key "../escaped" leaves the catalog folder.' });
});

t.test("S3's catalog records and file checks", async (t) => {
  await recordsAndFileChecks(t, await s3Storage(t));
});
