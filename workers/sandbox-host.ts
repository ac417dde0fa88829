/**
 * A sandbox host: the process that runs tenant code, in isolates, for the front. A process is the
 * failure domain: when V8 loses an isolate (a catastrophic out-of-memory parks its thread and keeps
 * its memory until the process ends) or the process dies, the front recycles the whole host and no
 * client connection is touched. The host's own thread never runs tenant code (every execution goes
 * through isolated-vm's thread pool), so its timers, which bound every execution, always fire.
 *
 * Started by src/sandbox/sandbox-host.ts with the limits as its one argument; talks over the IPC
 * channel (messages in src/sandbox/protocol.ts).
 */
import '../src/enable-compile-cache';
import { CANCELLED, type BridgeForwarder, type ComponentIsolate } from './component-isolate';
import { WarmIsolates } from './warm-isolates';
import { Outbox } from '../src/sandbox/outbox';
import { NEED_CODE, type ExecuteMessage, type FrontMessage, type HostMessage, type SandboxLimits } from '../src/sandbox/protocol';

/** How often warm isolates are measured (eviction by bytes) and checked for code running while idle. */
const HOUSEKEEPING_MS = 500;
/** An isolate running code this long without a break is reported busy, so the front routes around it; checked as often. */
const BUSY_MS = 100;

const limits = JSON.parse(process.argv[2]!) as SandboxLimits;
const outbox = new Outbox<HostMessage>((batch) => process.send!(batch));
const bridgeCalls = new Map<number, (answer: string) => void>();
let nextCall = 1;

const forward: BridgeForwarder = (execution, op, payload) =>
  new Promise((resolve) => {
    const call = nextCall++;
    bridgeCalls.set(call, resolve);
    outbox.post({ t: 'bridge', call, execution, op, payload });
  });

const warm = new WarmIsolates(limits, forward, (keys) => outbox.post({ t: 'isolate-lost', keys }));
/** Executions received and not yet answered, with the isolate running them (none yet while it is built). */
const executions = new Map<number, ComponentIsolate | undefined>();

/** Runs one execution: at once when its version is warm, else once its context is built. */
function execute(message: ExecuteMessage): void {
  const isolate = warm.ready(message.key);
  if (isolate) {
    run(isolate, message);
    return;
  }
  executions.set(message.id, undefined);
  void warm.get(message.component, message.key, message.code).then((built) => {
    if (!executions.has(message.id)) return; // cancelled while its context was being built
    if (built === undefined || typeof built === 'string') {
      executions.delete(message.id);
      outbox.post({ t: 'result', id: message.id, answer: built ?? NEED_CODE });
      return;
    }
    run(built, message);
  });
}

function run(isolate: ComponentIsolate, message: ExecuteMessage): void {
  executions.set(message.id, isolate);
  isolate.execute(message.key, message.input, message.id, message.timeoutMs, (answer) => {
    executions.delete(message.id);
    if (answer !== CANCELLED) outbox.post({ t: 'result', id: message.id, answer });
  });
}

function cancel(id: number): void {
  if (!executions.has(id)) return;
  const running = executions.get(id);
  executions.delete(id);
  running?.cancel(id);
}

process.on('message', (batch: FrontMessage[]) => {
  for (const message of batch) {
    switch (message.t) {
      case 'execute':
        execute(message);
        break;
      case 'cancel':
        cancel(message.id);
        break;
      case 'bridge-answer':
        bridgeCalls.get(message.call)?.(message.answer);
        bridgeCalls.delete(message.call);
        break;
      case 'ping':
        outbox.post({ t: 'pong', id: message.id, warmIsolates: warm.count, heapBytes: warm.heapBytes, rssBytes: process.memoryUsage.rss() });
        break;
    }
  }
});

// The front is gone: nothing can be answered any more. A hard exit, because a parked isolate
// thread would keep a normal exit waiting forever.
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));

setInterval(() => {
  warm.checkIdle();
  void warm.measure();
}, HOUSEKEEPING_MS);

let reportedBusy = '';
setInterval(() => {
  const components = warm.busyComponents(BUSY_MS);
  const key = components.join('\n');
  if (key === reportedBusy) return;
  reportedBusy = key;
  outbox.post({ t: 'busy', components });
}, BUSY_MS);

outbox.post({ t: 'ready' });
