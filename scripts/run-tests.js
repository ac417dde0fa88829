// `npm test`, after its `pretest` (prerequisites, build): builds tap with the project's plugins,
// shares the test files out between parts (write-test-parts.js), packages every fixture once
// (warm-fixture-cache.ts), then runs the parts with Node's runner, six at a time. Every step runs
// with the same temporary folder (below), so that the fixtures the warm-up packaged are the ones
// the tests find. Exits with the first failing step's code.
const { spawnSync } = require('node:child_process');
const { accessSync, constants, mkdirSync, statfsSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
const node = process.execPath;
const inDist = (file) => `./dist/${file}`;

/**
 * The tests write and remove thousands of temporary folders (each registry's storage, its hosts'
 * sockets, spooled uploads, an S3 server's objects: under 100 MB at once). On a disk mounted with
 * `discard`, as cloud disks often are, every removal is a trim, and a file of a thousand versions
 * spent 3 to 4 s in the kernel where RAM takes 0.8 s. So the suite's temporary folder is under
 * /dev/shm (RAM, on Linux) when it has room; TMPDIR set by whoever runs the tests wins.
 */
const RAM_FOLDER = '/dev/shm';
/** Far above what the suite holds at once, so that a small /dev/shm (a container's 64 MB) is not filled. */
const RAM_NEEDED_BYTES = 2 * 1024 ** 3;

function temporaryFolder() {
  if (process.env.TMPDIR) return process.env.TMPDIR;
  try {
    const { bavail, bsize } = statfsSync(RAM_FOLDER);
    if (bavail * bsize < RAM_NEEDED_BYTES) return undefined;
    const folder = path.join(RAM_FOLDER, `tessera-tests-${os.userInfo().uid}`);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    accessSync(folder, constants.W_OK);
    return folder;
  } catch {
    return undefined; // no such folder, or not ours: the system's temporary folder
  }
}

const tmp = temporaryFolder();
const env = tmp ? { ...process.env, TMPDIR: tmp } : process.env;

const steps = [
  ['scripts/build-tap-plugins.js'],
  ['scripts/write-test-parts.js'],
  ['--no-node-snapshot', '--require', inDist('src/enable-compile-cache.js'), inDist('test/helpers/warm-fixture-cache.js')],
  [
    '--no-node-snapshot',
    '--require',
    inDist('src/enable-compile-cache.js'),
    '--require',
    inDist('test/helpers/file-time-limit.js'),
    '--test',
    `--test-global-setup=${inDist('test/helpers/global-setup.js')}`,
    // A part waits about half its time on sandbox hosts, answers and timers: four at a time left a
    // fifth of 2 CPUs idle.
    '--test-concurrency=6',
    'dist/test-parts/*.test.js',
  ],
];

for (const args of steps) {
  const { status, signal } = spawnSync(node, args, { cwd: root, env, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? (signal ? 1 : 0));
}
