import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSocketFolder } from '../../src/sandbox/socket-folder';

t.test("the hosts' socket folder is the registry's own; one left by a killed registry goes at the next start", async (t) => {
  // The id of a process that has ended: a registry killed before it could remove its folder.
  const ended = spawnSync(process.execPath, ['-e', '0']).pid!;
  const leftover = path.join(os.tmpdir(), `tessera-hosts-${ended}-left`);
  const running = path.join(os.tmpdir(), `tessera-hosts-${process.pid}-running`);
  mkdirSync(leftover, { recursive: true });
  mkdirSync(running, { recursive: true });
  const folder = createSocketFolder();
  t.teardown(() => {
    for (const made of [leftover, running, folder]) rmSync(made, { recursive: true, force: true });
  });

  t.notOk(existsSync(leftover), 'the folder of a process that no longer runs is removed');
  t.ok(existsSync(running), "a running registry's folder stays");
  t.match(path.basename(folder), new RegExp(`^tessera-hosts-${process.pid}-`));
  t.equal(statSync(folder).mode & 0o777, 0o700, 'only its user can open the sockets in it');
});
