import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { NODE_FLAGS } from '../../src/node-flags';
import { REPO_ROOT, request } from '../helpers/start-registry';
import { cliEnv, eventually, runCli, startCli, workFolder } from './run-cli';

const BIN = path.join(REPO_ROOT, 'bin', 'tessera.js');
const commandLineOf = (pid: number): string[] => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
const childrenOf = (pid: number): number[] => readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);

// `tessera start` as an operator types it (no Node flags) starts itself again with the registry's
// flags. It used to spawn a second process for that and stay beside it, relaying signals: 40 MB
// of resident memory that served nothing, and a process id that was not the registry's.
t.test('tessera start without the flags: the process started is the registry, with its flags, and its only children are sandbox hosts', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  const storagePath = await workFolder(t);
  const registry = startCli(t, ['start', '--port', '0', '--storage', storagePath], {
    env: cliEnv({ TESSERA_HOST: '127.0.0.1', TESSERA_LIMITS_SANDBOX_HOSTS: '1', TESSERA_LIMITS_FRONT_THREADS: '1' }),
    nodeFlags: [],
  });
  const { child } = registry;
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const [, url] = await registry.waitFor(/Tessera registry on (http:\/\/127\.0\.0\.1:\d+\/)/);

  const commandLine = commandLineOf(child.pid!);
  t.same(commandLine.slice(1, 1 + NODE_FLAGS.length), [...NODE_FLAGS], 'the process started runs with the registry flags');
  t.same(commandLine.slice(1 + NODE_FLAGS.length), [BIN, 'start', '--port', '0', '--storage', storagePath], 'and the same command');
  // Ready once its sandbox host is up, which a busy machine delays.
  await eventually(async () => (await request(`${url}readyz`)).status === 200);
  const children = childrenOf(child.pid!);
  t.equal(children.length, 1, 'one child: the sandbox host');
  t.ok(commandLineOf(children[0]!).some((arg) => arg.endsWith('sandbox-host.js')), 'which is a sandbox host, not a second registry');

  child.kill('SIGTERM');
  t.equal(await exited, 0, 'SIGTERM to the process started drains the registry, which exits 0');
});

t.test('a command that ends, started without the flags, keeps its output and its exit code', async (t) => {
  const run = (args: string[]) => runCli(args, { nodeFlags: [] });
  const help = await run(['start', '--help']);
  t.equal(help.code, 0);
  t.match(help.stdout, /^Usage: tessera start /);
  t.equal(help.stderr, '', 'no warning of the restart');
  const unknown = await run(['no-such-command']);
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, /^Unknown command "no-such-command"/);
});
