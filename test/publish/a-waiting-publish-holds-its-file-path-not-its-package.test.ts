import { rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { memoryReducingCollection } from '../../src/front/idle-memory';
import { packTarball } from '../../src/packager/pack-tarball';
import type { PublishJob } from '../../src/publish/publish-package';
import { PublishPool } from '../../src/publish/publish-pool';
import { largePackage } from '../helpers/large-package';
import { packagedFixture } from '../helpers/packaged-fixture';
import { pipedPool } from './piped-pool';
import { GREETING, packed } from './publish-helpers';

/**
 * The process's publish pool with one thread, held by a publish whose upload is a named pipe that
 * nobody writes to yet: its thread waits on the pipe, so every other publish waits in the pool's
 * queue for as long as the test says, on any machine. The pool runs in this test's process, as it
 * runs in a registry's main thread.
 */

// A full collection, through a context of its own: the process's other contexts (the next test files' of a part) get no `gc`.
const gc = memoryReducingCollection;

const MB = 1024 * 1024;
const dryRun = (tenant: string, version: string): PublishJob => ({ name: 'publish-greeting', version, tenant, tokenId: `config:${tenant}`, storedToken: false, dryRun: true });

interface Teardown {
  teardown(fn: () => unknown): void;
}

async function heldPool(t: Teardown): Promise<{ pool: PublishPool; folder: string; release(): Promise<void>; held: Promise<unknown> }> {
  // Out of reach: the held publish waits on its pipe as long as the test needs.
  const { pool, folder, pipe } = await pipedPool(t, 600);
  const held = pool.run(dryRun('holder', '1.0.0'), pipe);
  return { pool, folder, held, release: async () => writeFile(pipe, await packed(GREETING)) };
}

t.test('a publish waiting for a thread keeps its package on disk: the process holds no more memory for it', async (t) => {
  const { pool, folder, held, release } = await heldPool(t);
  const base = await packagedFixture(GREETING);
  const files: string[] = [];
  for (let index = 0; index < 4; index++) {
    const file = path.join(folder, `upload-${index}.tgz`);
    // 15 MB of incompressible static files: a 15 MB upload each.
    await writeFile(file, await packTarball(largePackage(base, 'publish-greeting', `2.0.${index}`, { serverBytes: 10_000, staticBytes: 15 * MB })));
    files.push(file);
  }
  gc();
  const before = process.memoryUsage().arrayBuffers;

  const waiting = files.map((file, index) => pool.run(dryRun('greeters', `2.0.${index}`), file));
  t.equal(pool.waiting, 4, 'all four wait for the held thread');
  // Time for anything that would read them ahead of their thread (a front streaming them into a channel did).
  await new Promise((resolve) => setTimeout(resolve, 500));
  gc();
  const grown = process.memoryUsage().arrayBuffers - before;
  t.ok(grown < 15 * MB, `60 MB of uploads wait, and the process's buffers grew by ${(grown / MB).toFixed(1)} MB`);
  for (const file of files) t.equal((await stat(file)).size > 15 * MB, true, `${path.basename(file)} is whole on disk`);
  t.equal(pool.waiting, 4, 'and they still wait');

  await release();
  t.same(await held, { ok: true });
  t.same(await Promise.all(waiting), files.map(() => ({ ok: true })), 'each is read from its file once its turn comes');
  t.equal(pool.inProgress, 0);
});

t.test("the pool's thread goes round-robin by tenant, not in arrival order", async (t) => {
  const { pool, held, release } = await heldPool(t);
  const tarball = path.join(os.tmpdir(), `tessera-round-robin-${process.pid}.tgz`);
  t.teardown(() => rm(tarball, { force: true }));
  // One package serves every dry run: their jobs name the URL's version as the descriptor's.
  await writeFile(tarball, await packed(GREETING));
  const order: string[] = [];
  const queued = [
    ['attacker', 'a1'],
    ['attacker', 'a2'],
    ['attacker', 'a3'],
    ['bystander', 'b1'],
    ['other', 'c1'],
  ].map(([tenant, id]) => pool.run(dryRun(tenant!, '1.0.0'), tarball).then((outcome) => order.push(`${id}:${outcome.ok}`)));
  t.equal(pool.waiting, 5);
  await release();
  await held;
  await Promise.all(queued);
  t.same(order, ['a1:true', 'b1:true', 'c1:true', 'a2:true', 'a3:true']);
});

t.test('a publish still waiting when the pool closes is turned away, not left waiting', async (t) => {
  const { pool, held } = await heldPool(t);
  const waiting = pool.run(dryRun('greeters', '1.0.0'), path.join(os.tmpdir(), 'never-read.tgz'));
  t.equal(pool.waiting, 1);
  const ended = [
    t.rejects(held, 'the running one ends with its thread'),
    t.rejects(waiting, { message: 'The publish pool was closed before this publish had a thread.' }, 'the waiting one is turned away'),
  ];
  await pool.close();
  await Promise.all(ended);
  t.equal(pool.inProgress, 0);
});
