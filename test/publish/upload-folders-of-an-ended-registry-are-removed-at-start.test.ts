import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SPOOL_PREFIX } from '../../src/publish/spool-upload';
import { startPublishRegistry } from './publish-helpers';

t.test('the upload folders a killed registry left are removed at the next start; a running one keeps its own', async (t) => {
  // The id of a process that has ended: a registry killed while it received an upload.
  const ended = spawnSync(process.execPath, ['-e', '0']).pid!;
  const leftover = path.join(os.tmpdir(), `${SPOOL_PREFIX}${ended}-left`);
  const running = path.join(os.tmpdir(), `${SPOOL_PREFIX}${process.pid}-running`);
  for (const folder of [leftover, running]) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'package.tgz'), 'part of an upload');
  }
  t.teardown(() => {
    for (const made of [leftover, running]) rmSync(made, { recursive: true, force: true });
  });
  await startPublishRegistry(t);
  t.notOk(existsSync(leftover), 'the folder of a process that no longer runs is removed');
  t.ok(existsSync(path.join(running, 'package.tgz')), "a running registry's upload stays");
});
