// The temporary folder of `npm test`'s steps (run-tests.js).
const { accessSync, constants, mkdirSync, statfsSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/**
 * The tests write and remove thousands of temporary folders (each registry's storage, its hosts'
 * sockets, spooled uploads, an S3 server's objects: under 100 MB at once). On a disk mounted with
 * `discard` (the machines this suite is measured on), every removal is also a trim: a part of 25
 * test files spent 6.2 to 6.4 s of system CPU there, 4.6 to 4.8 s in RAM. So the suite's temporary
 * folder is under /dev/shm (RAM, on Linux) when it has room; a TMPDIR set by whoever runs the
 * tests wins.
 */
const RAM_FOLDER = '/dev/shm';
/** Far above what the suite holds at once, so that a small /dev/shm (a container's 64 MB) is not filled. */
const RAM_NEEDED_BYTES = 2 * 1024 ** 3;

/** The folder to run the tests with, or undefined for the system's own. */
function testTemporaryFolder(env, ramFolder = RAM_FOLDER, neededBytes = RAM_NEEDED_BYTES) {
  if (env.TMPDIR) return env.TMPDIR;
  try {
    const { bavail, bsize } = statfsSync(ramFolder);
    if (bavail * bsize < neededBytes) return undefined;
    const folder = path.join(ramFolder, `tessera-tests-${os.userInfo().uid}`);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    accessSync(folder, constants.W_OK);
    return folder;
  } catch {
    return undefined; // no such folder, or not ours to write
  }
}

module.exports = { testTemporaryFolder };
