/**
 * The process that reads server bundles (forked by read-server-definition.ts): the only process
 * of the packager's side that loads isolated-vm. Each bundle is evaluated in a throw-away isolate,
 * never in a realm of the project's own. Its parent kills it once it is no longer needed, so its
 * end never waits for isolated-vm's teardown (a process that ends while an isolate is being torn
 * down can abort).
 */
import '../enable-compile-cache';
import ivm from 'isolated-vm';

export interface ReadRequest {
  id: number;
  code: string;
}

export interface ReadAnswer {
  id: number;
  /** What `describeServer` answered, as JSON; absent when the isolate itself failed. */
  described?: string;
  /** Why the isolate failed (its memory limit, its time limit). */
  failure?: string;
}

/**
 * Runs inside the throw-away isolate (injected with `Function.prototype.toString`, so it refers to
 * nothing outside its body): loads the bundle as the sandbox does, with its own `module`, `exports`
 * and a `require` that refuses, then tells what it exports.
 */
function describeServer(load: (module: object, exports: unknown, require: (name: string) => never) => void): string {
  (globalThis as { console?: object }).console = { log() {}, info() {}, warn() {}, error() {}, debug() {}, trace() {} };
  const module: { exports: unknown } = { exports: {} };
  try {
    load(module, module.exports, (name) => {
      throw new Error(`Module "${String(name)}" is not bundled with the component and the registry does not provide it.`);
    });
  } catch (error) {
    return JSON.stringify({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
  // What the tenant's bundle exported, as far as it is read here.
  const exported = module.exports as { server?: { definition?: { parameters: unknown; actions: object } }; data?: unknown } | null | undefined;
  const definition = exported?.server?.definition;
  if (definition && typeof definition === 'object') {
    return JSON.stringify({ kind: 'modern', parameters: definition.parameters, actions: Object.keys(definition.actions) });
  }
  if (typeof exported?.data === 'function') return JSON.stringify({ kind: 'legacy' });
  return JSON.stringify({ kind: 'invalid' });
}

async function read(code: string): Promise<Omit<ReadAnswer, 'id'>> {
  const isolate = new ivm.Isolate({ memoryLimit: 64 });
  try {
    const context = await isolate.createContext();
    const script = `(${describeServer.toString()})(function(module, exports, require){${code}\n});`;
    return { described: (await context.eval(script, { timeout: 5000 })) as string };
  } catch (error) {
    return { failure: (error as Error).message };
  } finally {
    // Past its memory limit isolated-vm has disposed it already, and a second dispose would throw.
    if (!isolate.isDisposed) isolate.dispose();
  }
}

process.on('message', (request: ReadRequest) => {
  void read(request.code).then((answer) => process.send?.({ id: request.id, ...answer } satisfies ReadAnswer));
});
// Its parent ended without killing it: nothing waits for an orderly end.
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
