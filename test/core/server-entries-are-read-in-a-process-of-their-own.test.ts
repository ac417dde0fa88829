import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { TesseraError } from '../../src/errors/errors';
import { readServerDefinition } from '../../src/packager/read-server-definition';
import { REPO_ROOT } from '../helpers/start-registry';

/** This process's children that read server entries (from /proc: no API of the reader tells them). */
function readerPids(): number[] {
  return readdirSync('/proc/self/task')
    .flatMap((task) => readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server-definition-child');
      } catch {
        return false;
      }
    });
}

/** Gone, or a zombie nobody has reaped yet: it runs nothing any more. */
function ended(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return true;
  }
}

async function failure(code: string): Promise<{ code: string; problems: unknown }> {
  try {
    await readServerDefinition(code);
  } catch (error) {
    if (!(error instanceof TesseraError)) throw error;
    return { code: error.code, problems: (error.details as { problems: unknown }).problems };
  }
  throw new Error('the entry was read');
}

t.test('one reader process answers every read, and a reader killed meanwhile fails only the read it held', async (t) => {
  t.same(await readServerDefinition('module.exports = { data(context, callback) { callback(null, {}); } };'), { kind: 'legacy', parameters: {}, actions: [] });
  const [pid] = readerPids();
  t.ok(pid, 'a reader runs');
  t.same(await failure('JSON.stringify = () => "{";'), { code: 'PACKAGE_NOT_VALID', problems: ["Expected property name or '}' in JSON at position 1 (line 1 column 2)"] }, 'a bundle that replaced JSON in its realm');
  t.same(readerPids(), [pid], 'the same reader read both');

  const spinning = failure('for (;;) {}');
  await new Promise((resolve) => setTimeout(resolve, 200));
  process.kill(pid!, 'SIGKILL');
  t.same(await spinning, { code: 'PACKAGE_NOT_VALID', problems: ['the process reading the server entry ended (SIGKILL)'] });
  t.same(await readServerDefinition('module.exports = { data() {} };'), { kind: 'legacy', parameters: {}, actions: [] }, 'the next read starts another');
  t.not(readerPids()[0], pid);
});

t.test('a process that read a server entry ends by itself, with its code, and its reader with it', async (t) => {
  const script = `
    const { readServerDefinition } = require(${JSON.stringify(path.join(REPO_ROOT, 'dist/src/packager/read-server-definition.js'))});
    readServerDefinition('module.exports = { data() {} };').then((described) => {
      const children = require('node:fs').readFileSync('/proc/self/task/' + process.pid + '/children', 'utf8').trim();
      const loaded = Object.keys(require.cache).some((file) => file.includes('isolated-vm'));
      console.log(JSON.stringify({ described, children, loaded }));
      process.exitCode = 3;
    });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (...ended) => resolve(ended)));
  t.same({ code, signal }, { code: 3, signal: null }, 'not held, not aborted');
  const answer = JSON.parse(output) as { described: unknown; children: string; loaded: boolean };
  t.same(answer.described, { kind: 'legacy', parameters: {}, actions: [] });
  t.equal(answer.loaded, false, 'isolated-vm never loaded in the process that packaged');
  const readers = answer.children.split(' ').filter(Boolean).map(Number);
  t.equal(readers.length, 1);
  // Killed as its parent exited: the signal is sent, its delivery is the kernel's.
  const deadline = Date.now() + 10_000;
  while (!readers.every(ended) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  t.same(readers.filter((pid) => !ended(pid)), [], 'its reader ended with it');
});
