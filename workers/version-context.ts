import type ivm from 'isolated-vm';
import type { ComponentCode } from '../src/sandbox/protocol';
import { bounded } from './execution-timers';
import { preludeSource } from './prelude/prelude-source';
import type { PreludeLimits } from './prelude/install-prelude';

/** An execution waiting to enter: its id, its input JSON, and 1 when a tail watches it (the prelude keeps its console lines). */
export type PendingExecution = [id: number, input: string, tail: 0 | 1];

/** One version of the component: a context of its own (its own globals and built-ins) in the isolate. */
export interface VersionContext {
  readonly key: string;
  readonly plugins: readonly string[];
  context: ivm.Context | undefined;
  /** `__tesseraRunMany` of this context: starts a batch of executions. */
  runMany: ivm.Reference | undefined;
  /** Executions waiting for the next entry into the isolate: `[id, input JSON, 1 when a tail watches it]`. */
  pending: PendingExecution[];
  /** Answers to bridge calls of its executions, for the next entry: `[call id, answer JSON]`. */
  callAnswers: Array<[number, string]>;
  /** The executions those answers resume (ENDED answers resume none). */
  resuming: number[];
  /** The longest time limit among them. */
  pendingTimeoutMs: number;
  /** Dropped from the warm set: its context goes once its executions end. */
  retired: boolean;
}

/** A version with no context yet. */
export const newVersion = (key: string, plugins: readonly string[]): VersionContext => ({
  key,
  plugins,
  context: undefined,
  runMany: undefined,
  pending: [],
  callAnswers: [],
  resuming: [],
  pendingTimeoutMs: 0,
  retired: false,
});

/** The host functions a version's context reaches, the prelude's only way out (it holds their references). */
export interface ContextBridges {
  /** Synchronous calls (plugins), and fetching their answers. */
  bridge: (id: unknown, op: unknown, payload: unknown, signal?: unknown) => string | undefined;
  /** Messages: answers and nested renders (isolate-messages.ts). */
  deliver: (messages: unknown) => void;
}

/**
 * Compiles prelude, template and server bundle in a new context of `isolate`, within `timeoutMs`
 * each; answers a failure JSON, or undefined when ready.
 */
export async function buildContext(
  isolate: ivm.Isolate,
  version: VersionContext,
  code: ComponentCode,
  limits: PreludeLimits,
  timeoutMs: number,
  bridges: ContextBridges,
): Promise<string | undefined> {
  const context = await isolate.createContext();
  version.context = context;
  await context.evalClosure(preludeSource(limits, code.constants), [bridges.bridge, bridges.deliver], { arguments: { reference: true } });
  // The prelude's entry points are taken by reference and removed from the global object before
  // any tenant code runs: a view's top-level code, which runs first, could otherwise replace the
  // hook that loads the server bundle and answer the build in the host's or the registry's words.
  const hook = (name: string) => context.global.get(name, { reference: true }) as Promise<ivm.Reference>;
  version.runMany = await hook('__tesseraRunMany');
  const defineTemplate = await hook('__tesseraDefineTemplate');
  const defineServer = await hook('__tesseraDefineServer');
  for (const name of ['__tesseraRunMany', '__tesseraDescribe', '__tesseraDefineTemplate', '__tesseraDefineServer']) await context.global.delete(name);
  try {
    const timeout = bounded(timeoutMs);
    const template = await isolate.compileScript(`(function(){var oc;\n${code.template}\n;return oc.components;})()`, { filename: 'template.js', lineOffset: -1 });
    const components = (await template.run(context, { timeout, reference: true })) as ivm.Reference;
    await defineTemplate.apply(undefined, [components.derefInto(), code.templateKey], { timeout });
    components.release();
    if (code.server === undefined) return undefined;
    // Named, and its lines as the bundle's own: the frames of the component's code in a stack a tail shows (prelude/tail-capture.ts).
    const server = await isolate.compileScript(`(function(module, exports, require){\n${code.server}\n})`, { filename: 'server.js', lineOffset: -1 });
    const factory = (await server.run(context, { timeout, reference: true })) as ivm.Reference;
    // What the prelude answers: its own JSON, whatever the bundle did.
    const loaded = (await defineServer.apply(undefined, [factory.derefInto()], { timeout, result: { copy: true } })) as string;
    factory.release();
    return JSON.parse(loaded).ok ? undefined : loaded;
  } finally {
    defineTemplate.release();
    defineServer.release();
  }
}

/** Releases what the version's context holds in the isolate. */
export function releaseContext(version: VersionContext): void {
  version.runMany?.release();
  version.context?.release();
}
