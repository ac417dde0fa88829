import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { REPO_ROOT } from '../helpers/start-registry';

type Chooser = (env: Record<string, string | undefined>, ramFolder?: string, neededBytes?: number) => string | undefined;
// A plain script of npm test's, read where it is (scripts/ is not compiled).
const { testTemporaryFolder } = require(path.join(REPO_ROOT, 'scripts', 'test-temporary-folder.js')) as { testTemporaryFolder: Chooser };

t.test("npm test's temporary folder: RAM when it has room, the caller's TMPDIR first, the system's otherwise", async (t) => {
  // A folder standing in for /dev/shm, with room for anything the check asks.
  const ram = await mkdtemp(path.join(os.tmpdir(), 'tessera-ram-'));
  t.teardown(() => rm(ram, { recursive: true, force: true }));
  const mine = path.join(ram, `tessera-tests-${os.userInfo().uid}`);

  t.equal(testTemporaryFolder({}, ram, 0), mine, 'a RAM folder with room: a folder of this user in it');
  t.equal((await stat(mine)).mode & 0o777, 0o700, 'made for this user alone');
  t.equal(testTemporaryFolder({}, ram, 0), mine, 'the same folder the next time');
  t.equal(testTemporaryFolder({ TMPDIR: '/somewhere/of/the/callers' }, ram, 0), '/somewhere/of/the/callers', 'a TMPDIR set by whoever runs the tests is kept');
  t.equal(testTemporaryFolder({}, ram, Number.MAX_SAFE_INTEGER), undefined, 'a RAM folder without the room the suite needs is left alone');
  t.equal(testTemporaryFolder({}, path.join(ram, 'no-such-folder'), 0), undefined, 'no RAM folder: the system temporary folder');
});
