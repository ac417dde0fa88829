import type { RegistryPlugin } from '../config/config';
import { TesseraError } from '../errors/errors';
import type { BridgeRequest } from '../sandbox/execution-job';
import { isPlainObject, stringHeaders } from './call-values';
import { headersFromParent } from './component-cookies';
import type { BridgeLog } from './nested-render-log';
import type { RenderPipeline } from './render';

interface NestedRenderPayload {
  name: string;
  version?: unknown;
  parameters?: unknown;
  headers?: unknown;
  baseUrl: string;
}

/**
 * The longest name or version expression a log line carries: what a component asks for is its own
 * text, up to a nested render's 64 KB of arguments, and a component may ask for a hundred.
 */
const MAX_LOGGED_CHARS = 256;
const clipped = (text: unknown): unknown => (typeof text === 'string' && text.length > MAX_LOGGED_CHARS ? `${text.slice(0, MAX_LOGGED_CHARS)}…` : text);

/**
 * Answers the calls server logic makes from inside an isolate: nested renders go back through the
 * render pipeline (and may land on any host), spending their root request's budget and logged under
 * its id; plugin calls run the registry's plugin in the front. Answers are JSON: `{ok: true, value}`
 * or `{ok: false, message, code?}`.
 */
export function createBridgeAnswerer(pipeline: RenderPipeline, plugins: readonly RegistryPlugin[], log: BridgeLog = { failed: () => {} }) {
  return async ({ op, payload, depth, budget, caller, callerTenant, callerComponent }: BridgeRequest): Promise<string> => {
    try {
      if (op === 'render') {
        const call = JSON.parse(payload) as NestedRenderPayload;
        const version = typeof call.version === 'string' ? call.version : '';
        const nested = { reqId: budget.requestId, component: clipped(call.name), requestVersion: clipped(version), depth: depth + 1 };
        const { body } = await pipeline
          .render({
            name: call.name,
            version,
            parameters: isPlainObject(call.parameters) ? call.parameters : {},
            // The parent's headers are not forwarded unless the component passes them (decisions §8),
            // and no component's cookie comes from a parent (decisions §11).
            headers: headersFromParent(stringHeaders(call.headers)),
            mode: 'rendered',
            depth: depth + 1,
            baseUrl: call.baseUrl,
            budget,
            caller,
            callerTenant,
            callerComponent,
          })
          .catch((error: unknown) => {
            log.failed({ ...nested, code: (error as { code?: unknown }).code ?? 'GENERIC_ERROR' }, 'nested render failed');
            throw error;
          });
        log.rendered?.({ ...nested, version: body['version'] }, 'nested render');
        return JSON.stringify({ ok: true, value: body['html'] });
      }
      const call = JSON.parse(payload) as { name: string; args: unknown[] };
      const plugin = plugins.find((p) => p.name === call.name);
      if (!plugin) return JSON.stringify({ ok: false, message: `Plugin "${call.name}" is not available.` });
      const value = await plugin.func(...call.args);
      return JSON.stringify({ ok: true, value: value === undefined ? null : value });
    } catch (error) {
      // A nesting too deep is the whole request's failure, not only the child's: its code crosses back.
      const code = error instanceof TesseraError && error.code === 'NESTING_TOO_DEEP' ? error.code : undefined;
      return JSON.stringify({ ok: false, code, message: error instanceof Error ? error.message : String(error) });
    }
  };
}
