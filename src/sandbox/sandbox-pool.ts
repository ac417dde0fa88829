import path from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { TesseraError } from '../errors/errors';
import { AdmissionGate } from './admission-gate';
import { NEED_CODE, type BridgeAnswer, type BridgeRequest, type ComponentCode, type ExecutionTask, type SandboxLimits } from './protocol';

const WORKER_FILE = path.join(__dirname, '..', '..', 'workers', 'sandbox-worker.js');
const UNBOUNDED_TASKS_PER_WORKER = 1_000_000;

export interface SandboxPoolOptions {
  limits: SandboxLimits;
  workers: number;
  /** Executions from outside that may wait for a slot before the pool answers OVERLOADED. */
  maxQueue: number;
  /** Executions from outside one worker runs at once (they mostly wait on isolates and nested renders); nested renders come on top. */
  concurrentPerWorker: number;
  /** Answers nested renders and plugin calls made from inside isolates. */
  bridge: (request: BridgeRequest) => Promise<string>;
}

/** The front's handle on the piscina pool of sandbox workers. */
export class SandboxPool {
  readonly #piscina: Piscina;
  readonly #bridge: SandboxPoolOptions['bridge'];
  readonly #gate: AdmissionGate;

  constructor(options: SandboxPoolOptions) {
    this.#bridge = options.bridge;
    this.#gate = new AdmissionGate(options.workers * options.concurrentPerWorker, options.maxQueue);
    this.#piscina = new Piscina({
      filename: WORKER_FILE,
      minThreads: options.workers,
      maxThreads: options.workers,
      maxQueue: options.maxQueue,
      // Admission is bounded by the gate, before piscina: a nested render must always get a worker at once.
      concurrentTasksPerWorker: UNBOUNDED_TASKS_PER_WORKER,
      // Workers must keep their event loop running between tasks for bridge answers and timers.
      atomics: 'disabled',
      idleTimeout: Number.POSITIVE_INFINITY,
      workerData: options.limits,
    });
    this.#piscina.on('message', (message: { type?: string; port?: MessagePort }) => {
      if (message?.type === 'tessera-bridge-port' && message.port) this.#listen(message.port);
    });
    // A worker that dies is replaced by piscina; its tasks are rejected and answered below.
    this.#piscina.on('error', () => {});
  }

  #listen(port: MessagePort): void {
    port.on('message', (request: BridgeRequest) => {
      this.#bridge(request).then(
        (answer) => port.postMessage({ id: request.id, answer } satisfies BridgeAnswer),
        (error: unknown) => port.postMessage({ id: request.id, answer: JSON.stringify({ ok: false, message: String(error) }) } satisfies BridgeAnswer),
      );
    });
    port.unref();
  }

  /** Runs one execution and answers the isolate's result JSON. The code is sent only to workers that lack it. */
  async execute(key: string, loadCode: () => Promise<ComponentCode>, input: string, depth: number): Promise<string> {
    const task: ExecutionTask = { key, input, depth };
    if (depth === 0) await this.#gate.enter();
    try {
      let answer = await this.#run(task);
      if (answer === NEED_CODE) answer = await this.#run({ ...task, code: await loadCode() });
      if (answer === NEED_CODE) throw new Error('A sandbox worker asked twice for the same code.');
      return answer;
    } finally {
      if (depth === 0) this.#gate.leave();
    }
  }

  async #run(task: ExecutionTask): Promise<string> {
    try {
      return (await this.#piscina.run(task)) as string;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/queue is at limit/i.test(message)) throw new TesseraError('OVERLOADED');
      throw new TesseraError('SANDBOX_CRASHED', undefined, { cause: error });
    }
  }

  get queueSize(): number {
    return this.#gate.queued + this.#piscina.queueSize;
  }

  get threads(): number {
    return this.#piscina.threads.length;
  }

  async close(): Promise<void> {
    await this.#piscina.close({ force: true });
  }
}
