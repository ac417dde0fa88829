import t, { type Test } from 'tap';
import { fileSystemStorage, s3Storage, type SharedStorage } from '../helpers/catalog-storages';

async function listsSubFolders(t: Test, shared: SharedStorage): Promise<void> {
  const storage = shared.open();
  // `b-x` sorts before `b/…` (`-` before `/`), as S3 sorts whole keys.
  const keys = ['log/a/1', 'log/a/2', 'log/b-x', 'log/b/1', 'log/b/2', 'log/c/1', 'log/c/d/1', 'log/e'];
  for (const key of [...keys].reverse()) await storage.putRecord(key, Buffer.from(key));
  t.same(await storage.listRecords('log/'), keys, 'every key, sub-folders included, in key order');
  t.same(await storage.listRecords('log/', 'log/a/2'), keys.slice(2), 'after a key of a sub-folder');
  t.same(await storage.listRecords('log/', 'log/b'), keys.slice(2), 'after a prefix');
  t.same(await storage.listRecords('log/', 'log/c/0'), keys.slice(5));
  t.same(await storage.listRecords('log/', undefined, 3), keys.slice(0, 3), 'the first few');
  t.same(await storage.listRecords('log/', 'log/b-x', 2), ['log/b/1', 'log/b/2'], 'a few from a point on');
  t.same(await storage.listRecords('log/b/'), ['log/b/1', 'log/b/2'], 'one sub-folder');

  await storage.deleteRecords(['log/b/1', 'log/b/2']);
  t.same(await storage.listRecords('log/'), ['log/a/1', 'log/a/2', 'log/b-x', 'log/c/1', 'log/c/d/1', 'log/e'], 'a sub-folder emptied');
  await shared.open().putRecord('log/b/3', Buffer.from('again'));
  t.same(await storage.listRecords('log/b/'), ['log/b/3'], 'and written in again');
  t.equal(await storage.createRecord('log/f/1', Buffer.from('once')), true);
  await storage.deleteRecords(['log/f/1']);
  t.equal(await shared.open().createRecord('log/f/1', Buffer.from('once more')), true, 'a create-once record in a folder a delete removed');
}

t.test('the file system lists records in sub-folders in key order, from a point on, up to a limit', async (t) => {
  await listsSubFolders(t, await fileSystemStorage(t));
});

t.test('S3 lists records in sub-folders in key order, from a point on, up to a limit', async (t) => {
  await listsSubFolders(t, await s3Storage(t, 'sub-folders'));
});
