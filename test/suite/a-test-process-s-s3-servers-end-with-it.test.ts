import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';

const HELPER = path.join(__dirname, '..', 'helpers', 's3-server.js');
/** Longer than a process killed takes to go on a busy machine. */
const GONE_WITHIN_MS = 30_000;

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/**
 * Starts an S3 server in a test process of its own, which then ends as `end` says, its teardown never
 * run; answers the server's port. The server's objects are in `tmp`, which that teardown would have removed.
 */
async function serverOfAnEndedProcess(end: 'exits' | 'is killed', tmp: string): Promise<number> {
  const script = [
    `require(${JSON.stringify(HELPER)}).startS3Server({ teardown() {} }).then((server) => {`,
    `  process.stdout.write(server.port + '\\n');`,
    end === 'exits' ? '  process.exit(0);' : '  setInterval(() => {}, 1000);',
    '});',
  ].join('\n');
  const child = spawn(process.execPath, ['-e', script], { env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`the test process ended (${code}) before its server answered`)));
  });
  if (end === 'is killed') child.kill('SIGKILL');
  await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve)));
  return port;
}

async function goneWithin(port: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!(await accepts(port))) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

// The S3 servers of a test process run in one process of their own (test/helpers/s3-servers-process.ts):
// a test process that ends, whatever ends it, leaves none of them serving.
for (const end of ['exits', 'is killed'] as const) {
  t.test(`a test process that ${end} leaves no S3 server behind`, async (t) => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'tessera-ended-'));
    t.teardown(() => rm(tmp, { recursive: true, force: true }));
    const port = await serverOfAnEndedProcess(end, tmp);
    t.ok(await goneWithin(port, GONE_WITHIN_MS), `nothing accepts connections on its port ${port} any more`);
  });
}
