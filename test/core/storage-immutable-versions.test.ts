import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { TesseraError } from '../../src/errors/errors';
import { FileSystemStorage } from '../../src/storage/fs-storage';

const packageOf = (marker: string): Map<string, Buffer> =>
  new Map([
    ['package.json', Buffer.from(JSON.stringify({ name: 'core-stored', version: '1.0.0', marker }))],
    ['template.js', Buffer.from(`/* ${marker} */`)],
    ['public/img/logo.svg', Buffer.from(`<svg data-marker="${marker}"/>`)],
  ]);

async function storageIn(t: { teardown(fn: () => unknown): void }): Promise<{ storage: FileSystemStorage; root: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'tessera-core-storage-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  return { storage: new FileSystemStorage(root), root };
}

async function contentOf(storage: FileSystemStorage): Promise<Record<string, string | undefined>> {
  const read = async (file: string) => (await storage.readFile('core-stored', '1.0.0', file))?.toString('utf8');
  return { 'package.json': await read('package.json'), 'template.js': await read('template.js'), 'public/img/logo.svg': await read('public/img/logo.svg') };
}

const expected = (marker: string) => Object.fromEntries([...packageOf(marker)].map(([file, content]) => [file, content.toString('utf8')]));

t.test('writing a version twice fails with ALREADY_EXISTS and keeps the first', async (t) => {
  const { storage, root } = await storageIn(t);
  await storage.writeVersion('core-stored', '1.0.0', packageOf('first'));
  const error = await storage.writeVersion('core-stored', '1.0.0', packageOf('second')).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(error instanceof TesseraError, 'a coded error');
  t.equal((error as TesseraError).code, 'ALREADY_EXISTS');
  t.equal((error as TesseraError).status, 409);
  t.equal((error as TesseraError).message, 'core-stored@1.0.0 is already published; versions are immutable.');
  t.same(await contentOf(storage), expected('first'), 'the first version is intact');
  t.same(await storage.listVersions('core-stored'), ['1.0.0']);
  t.same(await readdir(path.join(root, '.staging', `${os.hostname()}.${process.pid}`)), [], 'the refused write left nothing behind');
});

t.test('concurrent writes of one version: exactly one wins, whole', async (t) => {
  const { storage, root } = await storageIn(t);
  const markers = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
  const outcomes = await Promise.allSettled(markers.map((marker) => storage.writeVersion('core-stored', '1.0.0', packageOf(marker))));

  const winners = markers.filter((_, i) => outcomes[i]!.status === 'fulfilled');
  t.equal(winners.length, 1, 'exactly one write succeeds');
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') t.equal((outcome.reason as TesseraError).code, 'ALREADY_EXISTS');
  }
  t.same(await contentOf(storage), expected(winners[0]!), "every file is the winner's");
  t.same(await readdir(path.join(root, '.staging', `${os.hostname()}.${process.pid}`)), [], 'the losing writes left nothing behind');
});

t.test('different versions of one component coexist', async (t) => {
  const { storage } = await storageIn(t);
  await Promise.all([storage.writeVersion('core-stored', '1.0.0', packageOf('one')), storage.writeVersion('core-stored', '1.0.1', packageOf('two'))]);
  t.same((await storage.listVersions('core-stored')).sort(), ['1.0.0', '1.0.1']);
  t.same(await storage.listComponents(), ['core-stored']);
});
