/** What crosses between the front's thread and the sandbox workers (structured clone; no functions). */
import type { MessagePort } from 'node:worker_threads';

export interface SandboxLimits {
  memoryMb: number;
  timeoutMs: number;
  /** Largest result (JSON characters) allowed to leave an isolate. */
  maxResultChars: number;
  /** Warm isolates a worker keeps before discarding the least recently used. */
  maxWarmIsolates: number;
}

/** The code of one component version, sent to a worker only when it lacks the warm isolate. */
export interface ComponentCode {
  template: string;
  templateKey: string;
  server?: string;
  /** The version declares plugins: its executions run asynchronously (a plugin call sleeps the isolate's thread). */
  plugins: boolean;
}

export interface ExecutionTask {
  /** Identifies the component version and its code: `name@version#serverHash`. */
  key: string;
  code?: ComponentCode;
  /** JSON of the execution input (see workers/isolate-prelude.ts). */
  input: string;
  depth: number;
}

/** Executions of one batch request, sent to a worker as one task: one message each way instead of one per item. */
export interface ExecutionGroupTask {
  group: ExecutionTask[];
}

/** A worker's answer: the execution result JSON, or NEED_CODE when it must be sent the code. */
export const NEED_CODE = '"need-code"';

/** A worker's first message, through piscina: its bridge port, and what the front watches of its thread. */
export interface WorkerHello {
  type: 'tessera-bridge-port';
  port: MessagePort;
  threadId: number;
  /** Its thread's use by synchronous executions (see src/sandbox/stuck-workers.ts). */
  threadUse: SharedArrayBuffer;
}

/** Messages from a worker to the front, on the bridge port each worker opens at start. */
export interface BridgeRequest {
  id: number;
  op: 'render' | 'plugin';
  payload: string;
  depth: number;
}

export interface BridgeAnswer {
  id: number;
  answer: string;
}

/** The front asks a worker for its sandbox figures (the metrics); the worker answers WorkerStats. */
export interface StatsRequest {
  type: 'stats';
  id: number;
}

export interface WorkerStats {
  type: 'stats';
  id: number;
  warmIsolates: number;
  heapBytes: number;
}

/** A worker tells the front that V8 lost control of an isolate (see workers/component-isolate.ts). */
export interface IsolateLost {
  type: 'isolate-lost';
}

/** Everything a worker sends on its bridge port, and everything the front sends back. */
export type WorkerMessage = BridgeRequest | WorkerStats | IsolateLost;
export type FrontMessage = BridgeAnswer | StatsRequest;
