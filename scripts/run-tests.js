// `npm test`, after its `pretest` (prerequisites, build): builds tap with the project's plugins,
// writes the parts that share the test files out between them (write-test-parts.js), packages every
// fixture once (warm-fixture-cache.ts), then runs the parts with Node's runner, all at once. Every step runs
// with the same temporary folder (test-temporary-folder.js), so that the fixtures the warm-up
// packaged are the ones the tests find. Exits with the first failing step's code.
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { testTemporaryFolder } = require('./test-temporary-folder');

const root = path.join(__dirname, '..');
const node = process.execPath;
const inDist = (file) => `./dist/${file}`;

const tmp = testTemporaryFolder(process.env);
const env = tmp ? { ...process.env, TMPDIR: tmp } : process.env;

// A part waits about half its time on sandbox hosts, answers and timers: on 2 CPUs, six parts ran the
// suite in 136 and 163 s, eight in 144 and 134 s (alternated, the machine's speed moving by more).
const PARTS = 6;

const steps = [
  ['scripts/build-tap-plugins.js'],
  ['scripts/write-test-parts.js', String(PARTS)],
  ['--require', inDist('src/enable-compile-cache.js'), inDist('test/helpers/warm-fixture-cache.js')],
  [
    '--require',
    inDist('src/enable-compile-cache.js'),
    '--require',
    inDist('test/helpers/file-time-limit.js'),
    '--test',
    `--test-global-setup=${inDist('test/helpers/global-setup.js')}`,
    `--test-concurrency=${PARTS}`,
    'dist/test-parts/*.test.js',
  ],
];

for (const args of steps) {
  // A step ended by a signal, or that could not start, has no status: a failure all the same.
  const { status, error } = spawnSync(node, args, { cwd: root, env, stdio: 'inherit' });
  if (error) process.stderr.write(`npm test could not run ${args.at(-1)}: ${error.message}\n`);
  if (status !== 0) process.exit(status ?? 1);
}
