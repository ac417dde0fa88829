import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';

/**
 * A publish thread can end with no task of its own: its deadline let the task go (the publish was
 * refused) while the parse it was stopping went on to pass the thread's heap. piscina tells that
 * through its pool's 'error' event; unheard, an 'error' event ends the process, and with it every
 * tenant's renders. Seen on a machine running two test suites at once.
 *
 * Here a thread answers its task, then fills its 16 MB heap. The publish threads run in a process of
 * their own, so that the test sees that process's end; the pool is told of the lost thread (a
 * registry logs it), and the next task (another tenant's publish) must get a new thread and its answer.
 */
const THREADS_MODULE = path.join(__dirname, '..', '..', 'src', 'publish', 'publish-threads.js');

const HOARDING_THREAD = `
exports.publishTask = async (task) => {
  if (task.hoard) setTimeout(() => { const kept = []; for (;;) kept.push(new Array(100000).fill(kept.length)); }, 20);
  return { ok: true, tenant: task.tenant };
};
`;

const POOL_PROCESS = `
const { startPublishThreads } = require(${JSON.stringify(THREADS_MODULE)});
const threads = startPublishThreads({ threads: 1, heapMb: 16, niceness: 0, workerData: {}, filename: process.argv[1], onLost: (error) => console.error('lost: ' + error.code) });
const lost = new Promise((resolve) => threads.once('workerDestroy', resolve));
(async () => {
  const first = await threads.run({ tenant: 'hoarder', hoard: true });
  const gave = setTimeout(() => { console.log(JSON.stringify({ first, lost: false })); process.exit(3); }, 60000);
  await lost;
  clearTimeout(gave);
  // Past the pool's 'error' event, which piscina emits right after it lets the thread go.
  await new Promise((resolve) => setImmediate(resolve));
  const next = await threads.run({ tenant: 'bystander', hoard: false });
  console.log(JSON.stringify({ first, lost: true, next }));
  await threads.destroy();
})();
`;

t.test('a publish thread that passes its heap after its task leaves the process and the next publish running', async (t) => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'tessera-lost-thread-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  const threadFile = path.join(folder, 'hoarding-thread.js');
  await writeFile(threadFile, HOARDING_THREAD);
  const ended = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(process.execPath, ['-e', POOL_PROCESS, threadFile], { timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
  t.equal(ended.stderr, 'lost: ERR_WORKER_OUT_OF_MEMORY\n', 'the pool was told of the lost thread, and nothing was thrown');
  t.equal(ended.code, 0, 'the process ended on its own');
  t.same(JSON.parse(ended.stdout), { first: { ok: true, tenant: 'hoarder' }, lost: true, next: { ok: true, tenant: 'bystander' } });
});
