import ivm from 'isolated-vm';
import { TesseraError } from '../errors/errors';
import { noteIsolateDisposed } from './isolate-teardown';
import type { ParameterDefinition } from '../descriptor/descriptor-types';

export interface ServerDescription {
  kind: 'modern' | 'legacy';
  parameters: Record<string, ParameterDefinition>;
  actions: string[];
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

/**
 * Evaluates a server bundle in a throw-away isolate (never in the packager's own realm) to read
 * what a modern entry declares with `withParameters` and `.action`.
 */
export async function readServerDefinition(serverCode: string): Promise<ServerDescription> {
  const isolate = new ivm.Isolate({ memoryLimit: 64 });
  try {
    const context = await isolate.createContext();
    const script = `(${describeServer.toString()})(function(module, exports, require){${serverCode}\n});`;
    const described = JSON.parse((await context.eval(script, { timeout: 5000 })) as string) as {
      kind: string;
      message?: string;
      parameters?: Record<string, ParameterDefinition>;
      actions?: string[];
    };
    if (described.kind === 'failed') {
      throw new TesseraError('PACKAGE_NOT_VALID', 'The server entry fails when loaded.', { details: { problems: [described.message ?? 'unknown failure'] } });
    }
    if (described.kind !== 'modern' && described.kind !== 'legacy') {
      throw new TesseraError('PACKAGE_NOT_VALID', 'The server entry exports neither `server` (built with oc-server) nor a legacy `data` function.', {
        details: { problems: ['the server entry must export `server` or `data`'] },
      });
    }
    return { kind: described.kind, parameters: described.parameters ?? {}, actions: described.actions ?? [] };
  } catch (error) {
    if (error instanceof TesseraError) throw error;
    throw new TesseraError('PACKAGE_NOT_VALID', 'The server entry fails when loaded.', { details: { problems: [(error as Error).message] } });
  } finally {
    // Past its memory limit isolated-vm has disposed it already, and a second dispose would throw
    // over the coded error above.
    if (!isolate.isDisposed) isolate.dispose();
    noteIsolateDisposed();
  }
}
