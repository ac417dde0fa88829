import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';

const RUN_FILES = path.join(__dirname, '..', 'helpers', 'run-files.js');
const TAP = require.resolve('tap');
const FILES = ['first', 'second', 'fails', 'fourth', 'fifth'];

/** A test file that logs its name, waits a little, and passes (or fails, for `fails`). */
const testFile = (name: string, log: string): string =>
  [
    `const t = require(${JSON.stringify(TAP)});`,
    `require('node:fs').appendFileSync(${JSON.stringify(log)}, ${JSON.stringify(name)} + '\\n');`,
    `t.test(${JSON.stringify(name)}, async (t) => {`,
    '  await new Promise((resolve) => setTimeout(resolve, 150));',
    name === 'fails' ? "  t.fail('this file fails');" : "  t.pass('passes');",
    '});',
  ].join('\n');

/** A part of the suite, as `npm test` runs one: answers its exit code and its TAP output. */
function partWithOutput(files: string[], claims: string): Promise<{ code: number | null; output: string }> {
  const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
  const script = `require(${JSON.stringify(RUN_FILES)}).runFiles(${JSON.stringify(files)}, ${JSON.stringify(claims)});`;
  const child = spawn(process.execPath, ['-e', script], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** A folder of its own for a test's files, their log and the parts' claims; removed when the test ends. */
async function partFolder(t: { teardown(fn: () => unknown): void }): Promise<{ dir: string; log: string; claims: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-parts-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const claims = path.join(dir, 'claims');
  await mkdir(claims);
  return { dir, log: path.join(dir, 'log'), claims };
}

const part = async (files: string[], claims: string): Promise<number | null> => (await partWithOutput(files, claims)).code;

t.test('parts that share a list of files run each file once, in one of them, and a failing file fails only its own part', async (t) => {
  const { dir, log, claims } = await partFolder(t);
  const files = FILES.map((name) => path.join(dir, `${name}.test.js`));
  for (const [index, name] of FILES.entries()) await writeFile(files[index]!, testFile(name, log));

  const codes = await Promise.all([part(files, claims), part(files, claims)]);
  t.same([...codes].sort(), [0, 1], 'the part that ran the failing file exits with 1, the other with 0');

  const ran = (await readFile(log, 'utf8')).trim().split('\n');
  t.same(ran.sort(), [...FILES].sort(), 'every file ran, once');

  const claimed = await readdir(claims);
  t.same(claimed.sort(), ['0', '1', '2', '3', '4'], 'a claim per file');
  for (const claim of claimed) {
    const { file, seconds } = JSON.parse(await readFile(path.join(claims, claim), 'utf8'));
    t.equal(file, files[Number(claim)], `claim ${claim} names its file`);
    t.ok(seconds >= 0.15, `claim ${claim} holds how long its file ran (${seconds} s)`);
  }

  t.equal(await part(files, claims), 0, 'a part that comes after every file is claimed runs none, and passes');
});

t.test("a file that leaves its process changed fails a test of its own, and the file after it finds the process as it was", async (t) => {
  const { dir, log, claims } = await partFolder(t);
  const leaks = path.join(dir, 'leaks.test.js');
  const after = path.join(dir, 'after.test.js');
  await writeFile(leaks, [`const t = require(${JSON.stringify(TAP)});`, "process.env.TESSERA_LEFT_BEHIND = 'yes';", "require('node:v8').setFlagsFromString('--expose-gc');", "t.pass('passes');"].join('\n'));
  await writeFile(
    after,
    [
      `const t = require(${JSON.stringify(TAP)});`,
      `require('node:fs').writeFileSync(${JSON.stringify(log)}, typeof process.env.TESSERA_LEFT_BEHIND + ' ' + require('node:vm').runInNewContext('typeof gc'));`,
      "t.pass('passes');",
    ].join('\n'),
  );

  const { code, output } = await partWithOutput([leaks, after], claims);
  t.equal(code, 1, 'the part fails');
  t.match(output, `not ok 2 - ${leaks} leaves its process as it found it`, 'in a test named by the file that left the change');
  t.match(output, "the environment's TESSERA_LEFT_BEHIND", 'which names the variable');
  t.match(output, "V8's --expose-gc (set)", 'and the flag');
  t.match(output, `ok 3 - ${after}`, 'the file after it passes');
  t.equal(await readFile(log, 'utf8'), 'undefined undefined', 'and finds neither the variable nor a gc global');
});
