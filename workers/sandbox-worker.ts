/**
 * The piscina worker: the host side of the sandbox. It keeps warm isolates per component version
 * and runs executions in them concurrently (an execution awaiting a nested render leaves the
 * thread free, so parents waiting on children never starve the pool).
 */
import v8 from 'node:v8';
import { MessageChannel, parentPort, threadId, workerData } from 'node:worker_threads';
import { ComponentIsolate } from './component-isolate';
import { FastPath, threadUse } from './fast-path';
import { NEED_CODE, type BridgeRequest, type ExecutionGroupTask, type ExecutionTask, type FrontMessage, type SandboxLimits, type WorkerHello, type WorkerMessage } from '../src/sandbox/protocol';

// Resizable ArrayBuffers (`new ArrayBuffer(n, {maxByteLength})`) commit memory outside the
// isolate's allocator, so they escape its memory limit. V8 reads this flag when it creates a
// context: every isolate built after this line has plain ArrayBuffers only.
v8.setFlagsFromString('--no-harmony-rab-gsab');

const limits = workerData as SandboxLimits;
const warm = new Map<string, Promise<ComponentIsolate | string>>();
const executionDepth = new Map<number, number>();
const pendingBridge = new Map<number, (answer: string) => void>();
let nextExecId = 1;
let nextBridgeId = 1;

const { port1: bridgePort, port2: frontPort } = new MessageChannel();
const hello: WorkerHello = { type: 'tessera-bridge-port', port: frontPort, threadId, threadUse: threadUse.buffer as SharedArrayBuffer };
parentPort!.postMessage(hello, [frontPort]);
bridgePort.on('message', (message: FrontMessage) => {
  if ('type' in message) {
    void stats().then((figures) => post({ type: 'stats', id: message.id, ...figures }));
    return;
  }
  pendingBridge.get(message.id)?.(message.answer);
  pendingBridge.delete(message.id);
});
bridgePort.unref();

const post = (message: WorkerMessage): void => bridgePort.postMessage(message);

/** Warm isolates and the heap they use, for the metrics. */
async function stats(): Promise<{ warmIsolates: number; heapBytes: number }> {
  // An isolate still being built is not counted yet: racing each entry against an already settled
  // promise answers the entry when it has settled, and undefined (at once) when it has not.
  const settled = await Promise.all([...warm.values()].map((entry) => Promise.race([entry, Promise.resolve(undefined)])));
  const isolates = settled.filter((entry): entry is ComponentIsolate => entry instanceof ComponentIsolate && !entry.disposed);
  const heaps = await Promise.all(isolates.map((isolate) => isolate.heapBytes()));
  return { warmIsolates: isolates.length, heapBytes: heaps.reduce((sum, bytes) => sum + bytes, 0) };
}

/** Answers of synchronous calls (plugins), kept until the execution that made the call fetches them. */
const syncAnswers = new Map<number, string>();

/**
 * Called from inside isolates. An asynchronous call (a nested render) answers a promise. A synchronous
 * one (a plugin) brings `signal`: its answer is kept, the flag raised, and the execution, asleep on
 * that flag, fetches the answer with the `<op>-answer` call (see workers/isolate-prelude.ts).
 */
function bridge(execId: number, op: string, payload: string, signal?: SharedArrayBuffer): Promise<string> | string | undefined {
  if (op.endsWith('-answer')) {
    const answer = syncAnswers.get(execId) ?? JSON.stringify({ ok: false, message: 'No answer is waiting for this call.' });
    syncAnswers.delete(execId);
    return answer;
  }
  if (signal === undefined) return ask(execId, op, payload);
  void ask(execId, op, payload).then((answer) => {
    if (!executionDepth.has(execId)) return; // the execution ended (timed out) while the host worked
    syncAnswers.set(execId, answer);
    const flag = new Int32Array(signal);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  });
  return undefined;
}

function ask(execId: number, op: string, payload: string): Promise<string> {
  const depth = executionDepth.get(execId);
  if (depth === undefined) return Promise.resolve(JSON.stringify({ ok: false, message: 'The execution that made this call has ended.' }));
  const id = nextBridgeId++;
  return new Promise((resolve) => {
    pendingBridge.set(id, resolve);
    post({ id, op: op as BridgeRequest['op'], payload, depth });
  });
}

async function isolateFor(task: ExecutionTask): Promise<ComponentIsolate | string | undefined> {
  let entry = warm.get(task.key);
  if (entry) {
    const ready = await entry;
    if (typeof ready === 'string' || !ready.disposed) {
      warm.delete(task.key); // re-insert: the map's order is least recently used first
      warm.set(task.key, entry);
      return ready;
    }
    warm.delete(task.key);
  }
  if (!task.code) return undefined;
  entry = ComponentIsolate.create(task.code, limits, bridge, () => post({ type: 'isolate-lost' }), new FastPath(task.key, task.code.plugins));
  warm.set(task.key, entry);
  evictColdest();
  return entry;
}

function evictColdest(): void {
  for (const [key, entry] of warm) {
    if (warm.size <= limits.maxWarmIsolates) return;
    warm.delete(key);
    void entry.then((isolate) => {
      if (typeof isolate !== 'string') isolate.disposeWhenIdle();
    });
  }
}

/** The piscina task: one execution, or a batch's executions run concurrently and answered together. */
export default function execute(task: ExecutionTask | ExecutionGroupTask): Promise<string | string[]> {
  return 'group' in task ? Promise.all(task.group.map(executeOne)) : executeOne(task);
}

async function executeOne(task: ExecutionTask): Promise<string> {
  const isolate = await isolateFor(task);
  if (isolate === undefined) return NEED_CODE;
  if (typeof isolate === 'string') {
    warm.delete(task.key); // a component that fails to load is retried on the next request
    return isolate;
  }
  const execId = nextExecId++;
  executionDepth.set(execId, task.depth);
  try {
    return await isolate.execute(task.input, execId, limits.timeoutMs);
  } finally {
    executionDepth.delete(execId);
  }
}
