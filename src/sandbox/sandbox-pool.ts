import path from 'node:path';
import type { MessagePort, Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { TesseraError } from '../errors/errors';
import { AdmissionGate } from './admission-gate';
import { ComponentGates } from './component-gates';
import { StuckWorkers } from './stuck-workers';
import {
  NEED_CODE,
  type BridgeRequest,
  type ComponentCode,
  type ExecutionGroupTask,
  type ExecutionTask,
  type FrontMessage,
  type SandboxLimits,
  type WorkerMessage,
  type WorkerHello,
  type WorkerStats,
} from './protocol';

const WORKER_FILE = path.join(__dirname, '..', '..', 'workers', 'sandbox-worker.js');
const UNBOUNDED_TASKS_PER_WORKER = 1_000_000;
/** How long a metrics scrape waits for a worker's figures. */
const STATS_WAIT_MS = 1000;
/** How long closing waits for workers that host an isolate V8 lost control of (they never exit). */
const CLOSE_WAIT_AFTER_LOSS_MS = 1000;

/** What the pool reports as it happens (the metrics count them). */
export interface SandboxEvents {
  /** A worker died or was terminated, and piscina started a replacement. */
  workerReplaced(): void;
  /** V8 lost control of an isolate: its executions were answered, its thread stays parked. */
  isolateLost(): void;
}

/**
 * The executions of one batch request. Those that reach the pool in the same turn of the event loop
 * travel to one worker as a single task; the batch answers when all its items are done anyway, so
 * grouping delays no one else.
 */
export class ExecutionGroup {
  pending: Array<{ task: ExecutionTask; resolve: (answer: string) => void; reject: (error: unknown) => void }> = [];
  scheduled = false;
}

/** Figures gathered from every worker. */
export interface SandboxStats {
  /** Workers that answered (started and responsive). */
  workers: number;
  warmIsolates: number;
  heapBytes: number;
}

export interface SandboxPoolOptions {
  limits: SandboxLimits;
  workers: number;
  /** Executions from outside that may wait for a slot before the pool answers OVERLOADED. */
  maxQueue: number;
  /** Executions from outside one worker runs at once (they mostly wait on isolates and nested renders); nested renders come on top. */
  concurrentPerWorker: number;
  /** Executions from outside of one component running at once; more wait in that component's queue. */
  maxConcurrentPerComponent: number;
  /** Answers nested renders and plugin calls made from inside isolates. */
  bridge: (request: BridgeRequest) => Promise<string>;
  events: SandboxEvents;
}

/** The front's handle on the piscina pool of sandbox workers. */
export class SandboxPool {
  readonly #piscina: Piscina;
  readonly #bridge: SandboxPoolOptions['bridge'];
  readonly #gate: AdmissionGate;
  readonly #componentGates: ComponentGates;
  readonly #events: SandboxEvents;
  /** Each worker's bridge port, by thread id. */
  readonly #workerPorts = new Map<number, MessagePort>();
  readonly #pendingStats = new Map<number, (stats: WorkerStats) => void>();
  #nextStatsId = 1;
  #isolatesLost = 0;
  readonly #stuckWorkers: StuckWorkers;
  #closing = false;

  constructor(options: SandboxPoolOptions) {
    this.#bridge = options.bridge;
    this.#events = options.events;
    this.#gate = new AdmissionGate(options.workers * options.concurrentPerWorker, options.maxQueue);
    this.#componentGates = new ComponentGates(options.maxConcurrentPerComponent, options.maxQueue);
    this.#piscina = new Piscina({
      filename: WORKER_FILE,
      minThreads: options.workers,
      maxThreads: options.workers,
      maxQueue: options.maxQueue,
      // Admission is bounded by the gate, before piscina: a nested render must always get a worker at once.
      concurrentTasksPerWorker: UNBOUNDED_TASKS_PER_WORKER,
      // Workers must keep their event loop running between tasks for bridge answers and timers.
      atomics: 'async',
      idleTimeout: Number.POSITIVE_INFINITY,
      // The registry keeps its own execution metrics; piscina's timing histograms would cost every task.
      recordTiming: false,
      workerData: options.limits,
    });
    this.#piscina.on('message', (message: Partial<WorkerHello>) => {
      if (message?.type === 'tessera-bridge-port' && message.port) this.#listen(message as WorkerHello);
    });
    this.#stuckWorkers = new StuckWorkers(options.limits.timeoutMs, () => this.#piscina.threads, (worker) => this.#abandon(worker));
    // A worker that dies is replaced by piscina; its tasks are rejected and answered below.
    this.#piscina.on('error', () => {});
    this.#piscina.on('workerDestroy', () => {
      if (!this.#closing) this.#events.workerReplaced();
    });
  }

  /**
   * Gives up a worker whose thread V8 parked (an isolate lost on the fast path): its port is
   * dropped and piscina, told the worker failed, answers its tasks SANDBOX_CRASHED and starts a
   * replacement. The parked thread stays.
   */
  #abandon(worker: Worker): void {
    this.#isolateLost();
    this.#workerPorts.get(worker.threadId)?.close();
    worker.emit('error', new Error('The sandbox worker stopped answering: its thread is held past the time limit.'));
  }

  #isolateLost(): void {
    this.#isolatesLost++;
    this.#events.isolateLost();
  }

  #listen({ port, threadId, threadUse }: WorkerHello): void {
    this.#stuckWorkers.watch(threadId, new Int32Array(threadUse));
    this.#workerPorts.set(threadId, port);
    const send = (message: FrontMessage) => port.postMessage(message);
    port.on('message', (message: WorkerMessage) => {
      if (!('type' in message)) {
        this.#bridge(message).then(
          (answer) => send({ id: message.id, answer }),
          (error: unknown) => send({ id: message.id, answer: JSON.stringify({ ok: false, message: String(error) }) }),
        );
      } else if (message.type === 'stats') {
        this.#pendingStats.get(message.id)?.(message);
      } else {
        this.#isolateLost();
      }
    });
    port.on('close', () => {
      this.#workerPorts.delete(threadId);
      this.#stuckWorkers.forget(threadId);
    });
    port.unref();
  }

  /**
   * Runs one execution of `component` and answers the isolate's result JSON. The code is sent only
   * to workers that lack it. An execution from outside passes its component's gate, then the pool's.
   */
  async execute(key: string, loadCode: () => Promise<ComponentCode>, input: string, depth: number, component: string, group?: ExecutionGroup): Promise<string> {
    const task: ExecutionTask = { key, input, depth };
    // Nested renders skip both gates: their parent already holds a slot and waits on them.
    if (depth > 0) return this.#runWithCode(task, loadCode, group);
    // Awaited only when queued: a free slot is taken without a promise.
    const componentTurn = this.#componentGates.enter(component);
    if (componentTurn) await componentTurn;
    try {
      const poolTurn = this.#gate.enter();
      if (poolTurn) await poolTurn;
    } catch (error) {
      this.#componentGates.leave(component);
      throw error;
    }
    try {
      return await this.#runWithCode(task, loadCode, group);
    } finally {
      this.#gate.leave();
      this.#componentGates.leave(component);
    }
  }

  async #runWithCode(task: ExecutionTask, loadCode: () => Promise<ComponentCode>, group: ExecutionGroup | undefined): Promise<string> {
    const answer = await this.#run(task, group);
    if (answer !== NEED_CODE) return answer;
    const retried = await this.#run({ ...task, code: await loadCode() }, group);
    if (retried === NEED_CODE) throw new Error('A sandbox worker asked twice for the same code.');
    return retried;
  }

  #run(task: ExecutionTask, group: ExecutionGroup | undefined): Promise<string> {
    if (!group) return this.#send(task) as Promise<string>;
    return new Promise((resolve, reject) => {
      group.pending.push({ task, resolve, reject });
      if (group.scheduled) return;
      group.scheduled = true;
      setImmediate(() => this.#flush(group));
    });
  }

  #flush(group: ExecutionGroup): void {
    const items = group.pending;
    group.pending = [];
    group.scheduled = false;
    (this.#send({ group: items.map((item) => item.task) }) as Promise<string[]>).then(
      (answers) => items.forEach((item, index) => item.resolve(answers[index]!)),
      (error: unknown) => items.forEach((item) => item.reject(error)),
    );
  }

  async #send(task: ExecutionTask | ExecutionGroupTask): Promise<string | string[]> {
    try {
      return (await this.#piscina.run(task)) as string | string[];
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/queue is at limit/i.test(message)) throw new TesseraError('OVERLOADED');
      throw new TesseraError('SANDBOX_CRASHED', undefined, { cause: error });
    }
  }

  get queueSize(): number {
    return this.#componentGates.queued + this.#gate.queued + this.#piscina.queueSize;
  }

  /** Warm isolates and their heap, summed over the workers that answer in time. */
  async stats(): Promise<SandboxStats> {
    const answers = await Promise.all(
      [...this.#workerPorts.values()].map(
        (port) =>
          new Promise<WorkerStats | undefined>((resolve) => {
            const id = this.#nextStatsId++;
            const timer = setTimeout(() => settle(undefined), STATS_WAIT_MS);
            const settle = (stats: WorkerStats | undefined) => {
              clearTimeout(timer);
              this.#pendingStats.delete(id);
              resolve(stats);
            };
            this.#pendingStats.set(id, settle);
            port.postMessage({ type: 'stats', id } satisfies FrontMessage);
          }),
      ),
    );
    const stats: SandboxStats = { workers: 0, warmIsolates: 0, heapBytes: 0 };
    for (const answer of answers) {
      if (answer) stats.workers++;
      stats.warmIsolates += answer?.warmIsolates ?? 0;
      stats.heapBytes += answer?.heapBytes ?? 0;
    }
    return stats;
  }

  /** Isolates V8 lost control of since start; their parked threads keep the process from exiting normally. */
  get isolatesLost(): number {
    return this.#isolatesLost;
  }

  /** Executions started on a worker's own thread (workers/fast-path.ts), summed over the live workers. */
  get fastPathExecutions(): number {
    return this.#stuckWorkers.callsStarted();
  }

  get threads(): number {
    return this.#piscina.threads.length;
  }

  /**
   * Stops the workers. A worker hosting an isolate V8 lost control of never finishes exiting (its
   * parked thread is never joined), so after such a loss closing waits only briefly; the process
   * then needs a hard exit too.
   */
  async close(): Promise<void> {
    this.#closing = true;
    this.#stuckWorkers.stop();
    const closed = this.#piscina.close({ force: true });
    if (this.#isolatesLost === 0) return closed;
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_AFTER_LOSS_MS).unref())]);
  }
}
