import t from 'tap';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { connectHost, forkHost, type HostLink } from '../../src/sandbox/host-link';
import type { HostMessage, SandboxLimits } from '../../src/sandbox/protocol';
import { createSocketFolder } from '../../src/sandbox/socket-folder';

const LIMITS: SandboxLimits = {
  memoryMb: 64,
  timeoutMs: 2000,
  maxResultChars: 1024 * 1024,
  maxWarmIsolates: 10,
  warmIsolateBytes: 64 * 1024 * 1024,
  maxNestedBatch: 50,
  maxNestedRenders: 100,
  hostMemoryBytes: 2048 * 1024 * 1024,
};

/** Starts a link and keeps what it receives. */
function listened(link: HostLink): HostMessage[] {
  const received: HostMessage[] = [];
  link.start({ batch: (batch) => received.push(...batch), output: () => {}, ended: () => {} });
  return received;
}

/** Waits for what the host sends; 60 s is a busy machine's allowance, not a bound. */
const until = async (condition: () => boolean) => {
  const deadline = performance.now() + 60_000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error('the host did not answer within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};
const has = (received: HostMessage[], t: HostMessage['t']) => received.some((message) => message.t === t);

t.test('a draining host refuses what a front sends it late, and ends only once every front has let go', async (t) => {
  const folder = createSocketFolder();
  const owner = forkHost(LIMITS, path.join(folder, 'h1.sock'));
  t.teardown(async () => {
    owner.end();
    await owner.ended;
    rmSync(folder, { recursive: true, force: true });
  });
  const toOwner = listened(owner);
  await until(() => has(toOwner, 'ready'));
  // Another front thread's connection.
  const guest = connectHost(owner.address, owner.pid);
  const toGuest = listened(guest);
  await until(() => has(toGuest, 'ready'));

  owner.send([{ t: 'drain' }]);
  await until(() => has(toGuest, 'draining') && has(toOwner, 'draining'));

  // Sent by a front that had not heard of the drain yet: answered "elsewhere", never run, never lost.
  guest.send([{ t: 'execute', id: 7, key: 'late@1.0.0#x', component: 'late', input: '{}', timeoutMs: 1000 }]);
  await until(() => has(toGuest, 'elsewhere'));
  t.same(toGuest.find((message) => message.t === 'elsewhere'), { t: 'elsewhere', id: 7 });
  t.notOk(has(toGuest, 'result'), 'no result: the execution did not run');

  owner.release();
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.notOk(has(toOwner, 'drained'), 'not drained while a front is still connected');
  guest.release();
  await until(() => has(toOwner, 'drained'));
  t.pass('drained once every front let go');
});
