import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { Catalog } from '../../src/catalog/catalog';
import { ChangeJournal } from '../../src/catalog/change-journal';
import type { StorageAdapter } from '../../src/storage/storage-adapter';
import { fileSystemStorage, s3Storage, storeCopies, type SharedStorage } from '../helpers/catalog-storages';
import { fixture } from '../helpers/start-registry';

const MINUTE_MS = 60_000;

/** The adapter, with the keys each listing of the journal answered. */
function listingJournal(real: StorageAdapter): { storage: StorageAdapter; listed: string[] } {
  const listed: string[] = [];
  const storage = new Proxy(real, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const answer: unknown = await (value as (...args: unknown[]) => Promise<unknown>).apply(target, args);
        if (property === 'listRecords' && args[0] === 'changes/') listed.push(...(answer as string[]));
        return answer;
      };
    },
  });
  return { storage, listed };
}

/** Folders of the journal a file system is asked to read meanwhile (the adapter calls `fs.promises.readdir` at each listing). */
function watchFolderReads(t: Test, root: string): string[] {
  const read: string[] = [];
  const promises = fs.promises as unknown as { readdir: (...args: unknown[]) => Promise<unknown> };
  const readdir = promises.readdir;
  promises.readdir = (folder: unknown, ...rest: unknown[]) => {
    const relative = path.relative(root, String(folder));
    if (relative.startsWith(path.join('catalog', 'changes'))) read.push(relative);
    return readdir.call(fs.promises, folder, ...rest);
  };
  t.teardown(() => void (promises.readdir = readdir));
  return read;
}

/** `count` lifecycle entries, evenly from `from` to `to` ms ago: the history a tenant's churn left. */
async function writeHistory(storage: StorageAdapter, count: number, from: number, to: number): Promise<void> {
  const journal = new ChangeJournal(storage);
  const now = Date.now();
  for (let i = 0; i < count; i++) await journal.announce('recent-0', '1.0.0', now - from + ((from - to) * i) / count, 'lifecycle');
}

async function pollListsRecentKeys(t: Test, shared: SharedStorage, root?: string): Promise<void> {
  await storeCopies(shared.open(), fixture('core-modes'), 'recent', 1, 1);
  const writer = new Catalog(shared.open(), { maintainsIndex: true });
  await writer.refresh();
  await writeHistory(shared.open(), 60, 30 * MINUTE_MS, 5 * MINUTE_MS);
  await writer.deprecate('recent-0', '1.0.0', { message: 'Now', date: '2026-11-27T08:00:00.000Z' });
  const reader = listingJournal(shared.open());
  const catalog = new Catalog(reader.storage);
  await catalog.refresh();
  t.same(catalog.deprecationOf('recent-0', '1.0.0'), { message: 'Now', date: '2026-11-27T08:00:00.000Z' });

  const folders = root === undefined ? [] : watchFolderReads(t, root);
  const poll = async () => {
    reader.listed.length = 0;
    folders.length = 0;
    await catalog.refresh();
    return { listed: [...reader.listed], folders: [...folders] };
  };
  const before = await poll();
  t.ok(before.listed.length <= 2, `a poll lists the last minute's entries, not 60 of history: ${before.listed.join(', ')}`);

  await writeHistory(shared.open(), 300, 3 * 60 * MINUTE_MS, 31 * MINUTE_MS);
  t.equal((await shared.open().listRecords('changes/')).length, 60 + 300 + before.listed.length, 'the journal holds its history');
  const after = await poll();
  t.same(after.listed, before.listed, 'five times the history: the same keys listed');
  if (root !== undefined) {
    t.same(after.folders, before.folders, 'and the same folders read');
    t.ok(before.folders.length <= 3, `the journal's folder and its last minutes only: ${before.folders.join(', ')}`);
  }
}

t.test("on the file system, a poll lists the journal's last minutes, however long its history", async (t) => {
  const shared = await fileSystemStorage(t);
  await pollListsRecentKeys(t, shared, shared.open().settings.location);
});

t.test("on S3, a poll lists the journal's last minutes, however long its history", async (t) => {
  await pollListsRecentKeys(t, await s3Storage(t, 'recent-keys'));
});
