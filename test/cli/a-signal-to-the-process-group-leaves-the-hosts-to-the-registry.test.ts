import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { NODE_FLAGS } from '../../src/node-flags';
import { FileSystemStorage } from '../../src/storage/fs-storage';
import { fixture, REPO_ROOT, request } from '../helpers/start-registry';
import { packagedFixture } from '../helpers/packaged-fixture';
import { cliEnv, workFolder } from './run-cli';

/** The sandbox host processes the registry process runs now. */
const hostsOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

// A terminal's Ctrl-C, or a service manager stopping a service, signals every process of the group:
// the registry's sandbox hosts too. They are the registry's to end: the render in flight finishes on
// the host that runs it, and no host is started while the registry drains.
t.test('SIGTERM to the whole process group: the render in flight is answered by its host, and no host is started while draining', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  const storagePath = await workFolder(t);
  const packaged = await packagedFixture(fixture('slow-worker'));
  await new FileSystemStorage(storagePath).writeVersion(packaged.descriptor.name, packaged.descriptor.version, packaged.files);
  const child = spawn(process.execPath, [...NODE_FLAGS, path.join(REPO_ROOT, 'bin', 'tessera.js'), 'start', '--port', '0', '--storage', storagePath], {
    env: cliEnv({ TESSERA_HOST: '127.0.0.1', TESSERA_LIMITS_DRAIN_DELAY_MS: '100', TESSERA_LIMITS_SANDBOX_HOSTS: '1', TESSERA_LIMITS_FRONT_THREADS: '1' }),
    // A process group of its own, as a terminal or a service manager gives it.
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    await exited;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const check = setInterval(() => {
      const match = output.match(/Tessera registry on (http:\/\/127\.0\.0\.1:\d+\/)/);
      if (match) resolve(match[1]!);
      if (match || child.exitCode !== null) clearInterval(check);
      if (!match && child.exitCode !== null) reject(new Error(`the registry exited before listening:\n${output}`));
    }, 50);
  });

  t.equal((await request(`${url}slow-worker`)).status, 200, 'warm');
  const hosts = hostsOf(child.pid!);
  t.equal(hosts.length, 1, 'one sandbox host');
  const inFlight = request(`${url}slow-worker?ms=1500`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  process.kill(-child.pid!, 'SIGTERM');

  const seen = new Set<number>();
  const watch = setInterval(() => hostsOf(child.pid!).forEach((pid) => seen.add(pid)), 20);
  const answer = await inFlight;
  t.equal(answer.status, 200, 'the render in flight is answered');
  t.match(answer.body.html, /run 2/, 'by the isolate that ran the first render: its host lived on');
  t.equal(await exited, 0, 'the registry drained and exited');
  clearInterval(watch);
  t.same([...seen].filter((pid) => !hosts.includes(pid)), [], 'no host was started while draining');
});
