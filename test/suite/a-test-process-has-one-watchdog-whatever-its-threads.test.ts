import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { REPO_ROOT } from '../helpers/start-registry';

const TIME_LIMIT = path.join(REPO_ROOT, 'dist', 'test', 'helpers', 'file-time-limit.js');

/** The processes `pid` started, with their command lines. */
const childrenOf = (pid: number): string[] =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .split(' ')
    .filter(Boolean)
    .map((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' '));

// A worker thread loads what its process was started to load (`--require`): the time limit of test
// files loaded in every registry's front and publish threads, each adding a watchdog of a file's
// limit for the whole process, which killed a part of the suite four minutes into its run.
t.test("a test process's worker threads leave its time limit to its main thread: one watchdog, of the process's limit", { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  const script = "const { Worker } = require('node:worker_threads'); new Worker('setTimeout(() => {}, 100)', { eval: true }).on('exit', () => process.stdout.write('ready')); setTimeout(() => {}, 10000);";
  const child = spawn(process.execPath, ['--require', TIME_LIMIT, '-e', script], { env: { ...process.env, NODE_TEST_CONTEXT: 'child-v8' }, stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => void child.kill('SIGKILL'));
  await new Promise((resolve) => child.stdout.once('data', resolve));
  const watchdogs = childrenOf(child.pid!).filter((command) => command.includes('kill -0'));
  t.equal(watchdogs.length, 1, watchdogs.join('\n'));
  t.match(watchdogs[0], `kill -9 ${child.pid}`);
});
