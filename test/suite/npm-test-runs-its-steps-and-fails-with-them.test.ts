import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { REPO_ROOT } from '../helpers/start-registry';

/**
 * `npm test`'s own script (scripts/run-tests.js), copied into a folder of its own whose steps are
 * small stand-ins: each writes its name and its TMPDIR to a log, and the step named in FAIL exits
 * with 3; the part the runner runs holds one test, which fails when FAIL is `a test`.
 */
async function stepsFolder(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-run-tests-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await mkdir(path.join(dir, 'scripts'));
  for (const file of ['run-tests.js', 'test-temporary-folder.js']) await copyFile(path.join(REPO_ROOT, 'scripts', file), path.join(dir, 'scripts', file));
  const step = (name: string) => `require('node:fs').appendFileSync(${JSON.stringify(path.join(dir, 'log'))}, ${JSON.stringify(name)} + ' ' + process.env.TMPDIR + '\\n'); if (process.env.FAIL === ${JSON.stringify(name)}) process.exit(3);\n`;
  const files: Record<string, string> = {
    'scripts/build-tap-plugins.js': step('tap-plugins'),
    'scripts/write-test-parts.js': step('parts'),
    'dist/src/enable-compile-cache.js': '',
    'dist/test/helpers/warm-fixture-cache.js': step('fixtures'),
    'dist/test/helpers/file-time-limit.js': '',
    'dist/test/helpers/global-setup.js': 'exports.globalSetup = () => {}; exports.globalTeardown = () => {};\n',
    'dist/test-parts/part-01.test.js': `${step('runner')}require('node:test')('a part', () => { if (process.env.FAIL === 'a test') throw new Error('failed'); });\n`,
  };
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  return dir;
}

function runTests(dir: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; log: string[] }> {
  return new Promise((resolve, reject) => {
    // As npm starts it: without what the runner of this file set (NODE_TEST_CONTEXT: an inner runner
    // would run no file; tap's NODE_OPTIONS: its loader, which Node's runner refuses).
    const { NODE_TEST_CONTEXT: _context, NODE_OPTIONS: _options, ...outside } = process.env;
    const child = spawn(process.execPath, [path.join(dir, 'scripts', 'run-tests.js')], { cwd: dir, env: { ...outside, ...env }, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', async (code) => {
      const log = await readFile(path.join(dir, 'log'), 'utf8').catch(() => '');
      resolve({ code, log: log.split('\n').filter(Boolean) });
    });
  });
}

t.test('npm test runs its steps in order, each with one temporary folder, and exits with the first failing one', async (t) => {
  const dir = await stepsFolder(t);
  const tmp = path.join(dir, 'tmp');
  await mkdir(tmp);

  const passed = await runTests(dir, { TMPDIR: tmp, FAIL: '' });
  t.same(passed, { code: 0, log: ['tap-plugins', 'parts', 'fixtures', 'runner'].map((step) => `${step} ${tmp}`) }, "every step, in order, with the caller's TMPDIR");

  await rm(path.join(dir, 'log'));
  const early = await runTests(dir, { TMPDIR: tmp, FAIL: 'parts' });
  t.same(early, { code: 3, log: [`tap-plugins ${tmp}`, `parts ${tmp}`] }, 'a failing step ends the run with its code; the steps after it never run');

  await rm(path.join(dir, 'log'));
  const failedTest = await runTests(dir, { TMPDIR: tmp, FAIL: 'a test' });
  t.equal(failedTest.code, 1, "a failing test fails npm test (Node's runner's code)");
});
