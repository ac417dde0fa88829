import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { FileSystemStorage } from '../../src/storage/fs-storage';

t.test("staging folders of stopped writers are removed at start; a live writer's are kept", async (t) => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'tessera-test-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const staging = path.join(root, '.staging');
  // A process of this host that has ended: its pid is free.
  const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  const writers = {
    stopped: `${os.hostname()}.${ended}`,
    alive: `${os.hostname()}.${process.ppid}`,
    otherHostRecent: 'other-host.42',
    otherHostOld: 'other-host.43',
  };
  for (const writer of Object.values(writers)) {
    await mkdir(path.join(staging, writer, 'publish-greeting@1.0.0-x'), { recursive: true });
    await writeFile(path.join(staging, writer, 'publish-greeting@1.0.0-x', 'package.json'), '{}');
  }
  const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
  await utimes(path.join(staging, writers.otherHostOld), twoDaysAgo, twoDaysAgo);

  t.equal(await new FileSystemStorage(root).removeInterruptedWrites(), 2);
  t.same((await readdir(staging)).sort(), [writers.alive, writers.otherHostRecent].sort());
});
