/**
 * The piscina worker: the host side of the sandbox. It keeps warm isolates per component version
 * and runs executions in them concurrently (an execution awaiting a nested render leaves the
 * thread free, so parents waiting on children never starve the pool).
 */
import { MessageChannel, parentPort, workerData } from 'node:worker_threads';
import { ComponentIsolate } from './component-isolate';
import { NEED_CODE, type BridgeAnswer, type BridgeRequest, type ExecutionTask, type SandboxLimits } from '../src/sandbox/protocol';

const limits = workerData as SandboxLimits;
const warm = new Map<string, Promise<ComponentIsolate | string>>();
const executionDepth = new Map<number, number>();
const pendingBridge = new Map<number, (answer: string) => void>();
let nextExecId = 1;
let nextBridgeId = 1;

const { port1: bridgePort, port2: frontPort } = new MessageChannel();
parentPort!.postMessage({ type: 'tessera-bridge-port', port: frontPort }, [frontPort]);
bridgePort.on('message', ({ id, answer }: BridgeAnswer) => {
  pendingBridge.get(id)?.(answer);
  pendingBridge.delete(id);
});
bridgePort.unref();

function bridge(execId: number, op: string, payload: string): Promise<string> {
  const depth = executionDepth.get(execId);
  if (depth === undefined) return Promise.resolve(JSON.stringify({ ok: false, message: 'The execution that made this call has ended.' }));
  const id = nextBridgeId++;
  return new Promise((resolve) => {
    pendingBridge.set(id, resolve);
    bridgePort.postMessage({ id, op: op as BridgeRequest['op'], payload, depth } satisfies BridgeRequest);
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
  entry = ComponentIsolate.create(task.code, limits, bridge);
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

export default async function execute(task: ExecutionTask): Promise<string> {
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
