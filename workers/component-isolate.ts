import ivm from 'isolated-vm';
import { hardenIntrinsics } from './harden-intrinsics';
import { installPrelude } from './isolate-prelude';
import type { ComponentCode, SandboxLimits } from '../src/sandbox/protocol';

/** Called from inside the isolate for nested renders and plugins: (execution id, operation, JSON payload) → JSON answer. */
export type BridgeFunction = (execId: number, op: string, payloadJson: string) => Promise<string>;

type DisposeReason = 'timeout' | 'memory' | 'evicted';

const failure = (code: string, message: string): string => JSON.stringify({ ok: false, code, message });

/**
 * One component version's warm isolate: its template and server bundle compiled once, then run
 * for every execution. A breached limit disposes the whole isolate; the next request builds anew.
 */
export class ComponentIsolate {
  readonly #isolate: ivm.Isolate;
  readonly #run: ivm.Reference;
  #disposeReason: DisposeReason | undefined;
  #inflight = 0;
  #evicted = false;

  private constructor(isolate: ivm.Isolate, run: ivm.Reference) {
    this.#isolate = isolate;
    this.#run = run;
  }

  /** Builds the isolate; on a failing component it answers the failure as JSON instead. */
  static async create(code: ComponentCode, limits: SandboxLimits, bridge: BridgeFunction): Promise<ComponentIsolate | string> {
    const isolate = new ivm.Isolate({ memoryLimit: limits.memoryMb });
    try {
      const context = await isolate.createContext();
      await context.evalClosure(
        `(${installPrelude.toString()})(globalThis, $0, ${limits.maxResultChars}); (${hardenIntrinsics.toString()})(globalThis);`,
        [bridge],
        { arguments: { reference: true } },
      );
      const run = (await context.global.get('__tesseraRun', { reference: true })) as ivm.Reference;
      await context.global.delete('__tesseraRun');
      await context.global.delete('__tesseraDescribe');

      const template = await isolate.compileScript(
        `__tesseraDefineTemplate((function(){var oc;${code.template}\n;return oc.components;})(), ${JSON.stringify(code.templateKey)});`,
      );
      await template.run(context, { timeout: limits.timeoutMs });
      if (code.server !== undefined) {
        const server = await isolate.compileScript(`__tesseraDefineServer(function(module, exports, require){${code.server}\n});`);
        const loaded = (await server.run(context, { timeout: limits.timeoutMs })) as string;
        if (!JSON.parse(loaded).ok) {
          isolate.dispose();
          return loaded;
        }
      }
      return new ComponentIsolate(isolate, run);
    } catch (error) {
      const answer = classify(error, isolate.isDisposed ? 'memory' : undefined);
      if (!isolate.isDisposed) isolate.dispose();
      return answer;
    }
  }

  get disposed(): boolean {
    return this.#isolate.isDisposed;
  }

  /** Runs one execution; always answers JSON (`{ok: true, …}` or a coded failure). */
  async execute(inputJson: string, execId: number, timeoutMs: number): Promise<string> {
    this.#inflight++;
    // The wall-clock timer also stops never-settling promises and loops that run after an `await`.
    const timer = setTimeout(() => this.dispose('timeout'), timeoutMs);
    try {
      return (await this.#run.apply(undefined, [inputJson, execId], {
        arguments: { copy: true },
        result: { promise: true, copy: true },
        timeout: timeoutMs,
      })) as string;
    } catch (error) {
      return classify(error, this.#disposeReason ?? (this.#isolate.isDisposed ? 'memory' : undefined));
    } finally {
      clearTimeout(timer);
      if (--this.#inflight === 0 && this.#evicted) this.dispose('evicted');
    }
  }

  /** Called when the worker drops this isolate from its warm set; running executions finish first. */
  disposeWhenIdle(): void {
    this.#evicted = true;
    if (this.#inflight === 0) this.dispose('evicted');
  }

  heapUsed(): number {
    return this.#isolate.isDisposed ? 0 : this.#isolate.getHeapStatisticsSync().used_heap_size;
  }

  dispose(reason: DisposeReason = 'evicted'): void {
    if (this.#isolate.isDisposed) return;
    this.#disposeReason ??= reason;
    this.#isolate.dispose();
  }
}

function classify(error: unknown, disposeReason: DisposeReason | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  if (disposeReason === 'timeout' || /execution timed out/i.test(message)) {
    return failure('EXECUTION_TIMEOUT', 'The component passed its execution time limit.');
  }
  if (disposeReason === 'memory' || /memory limit/i.test(message)) {
    return failure('MEMORY_LIMIT_EXCEEDED', 'The component passed its sandbox memory limit; its sandbox was discarded.');
  }
  if (disposeReason === 'evicted') return failure('SANDBOX_CRASHED', 'The sandbox running the component was recycled during the execution.');
  return failure('GENERIC_ERROR', `The component failed: ${message}`);
}
