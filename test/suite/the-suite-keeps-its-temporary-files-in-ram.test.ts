import { statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { REPO_ROOT } from '../helpers/start-registry';

type Chooser = (env: Record<string, string | undefined>, ramFolder?: string, neededBytes?: number) => string | undefined;
// A plain script of npm test's, read where it is (scripts/ is not compiled).
const { testTemporaryFolder, RAM_NEEDED_BYTES } = require(path.join(REPO_ROOT, 'scripts', 'test-temporary-folder.js')) as { testTemporaryFolder: Chooser; RAM_NEEDED_BYTES: number };

const ram = (() => {
  try {
    const { bavail, bsize } = statfsSync('/dev/shm');
    return bavail * bsize >= RAM_NEEDED_BYTES;
  } catch {
    return false;
  }
})();

t.test("npm test's temporary folder: RAM when it has room, the caller's TMPDIR first, the system's otherwise", async (t) => {
  t.equal(testTemporaryFolder({ TMPDIR: '/somewhere/of/the/callers' }), '/somewhere/of/the/callers', "a TMPDIR set by whoever runs the tests is kept");
  t.equal(testTemporaryFolder({}, path.join(REPO_ROOT, 'no-such-folder')), undefined, 'no RAM folder: the system temporary folder');
  t.equal(testTemporaryFolder({}, '/dev/shm', Number.MAX_SAFE_INTEGER), undefined, 'a RAM folder without the room the suite needs is left alone');
  if (ram) t.equal(testTemporaryFolder({}), path.join('/dev/shm', `tessera-tests-${os.userInfo().uid}`), 'a RAM folder with room: a folder of this user in it');
});
