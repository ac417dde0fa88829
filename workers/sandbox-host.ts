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
import { CANCELLED, type BridgeForwarder } from './component-isolate';
import { WarmIsolates } from './warm-isolates';
import { Outbox } from '../src/sandbox/outbox';
import { NEED_CODE, type ExecuteMessage, type FrontMessage, type HostMessage, type SandboxLimits } from '../src/sandbox/protocol';

/** How often idle isolates are checked for code running in them. */
const IDLE_CHECK_MS = 500;
/** How often warm isolates' heaps are read (eviction by bytes, the metrics): a reading is a task on each isolate. */
const MEASURE_MS = 2000;

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

const warm = new WarmIsolates(limits, forward, (key) => outbox.post({ t: 'isolate-lost', key }));
/** Executions received and not yet answered: those still waiting for their isolate have none yet. */
const executions = new Map<number, { cancel(): void } | undefined>();

async function execute(message: ExecuteMessage): Promise<void> {
  executions.set(message.id, undefined);
  const isolate = await warm.get(message.key, message.code);
  if (!executions.has(message.id)) return; // cancelled while its isolate was being built
  if (isolate === undefined || typeof isolate === 'string') {
    executions.delete(message.id);
    outbox.post({ t: 'result', id: message.id, answer: isolate ?? NEED_CODE });
    return;
  }
  const answer = isolate.execute(message.input, message.id, message.timeoutMs);
  executions.set(message.id, { cancel: () => isolate.cancel(message.id) });
  const json = await answer;
  executions.delete(message.id);
  if (json !== CANCELLED) outbox.post({ t: 'result', id: message.id, answer: json });
}

function cancel(id: number): void {
  if (!executions.has(id)) return;
  const running = executions.get(id);
  executions.delete(id);
  running?.cancel();
}

process.on('message', (batch: FrontMessage[]) => {
  for (const message of batch) {
    switch (message.t) {
      case 'execute':
        void execute(message);
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

setInterval(() => warm.checkIdle(), IDLE_CHECK_MS);
setInterval(() => void warm.measure(), MEASURE_MS);

outbox.post({ t: 'ready' });
