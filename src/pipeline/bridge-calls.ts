import type { RegistryPlugin } from '../config/config';
import type { BridgeRequest } from '../sandbox/sandbox-pool';
import type { RenderPipeline } from './render';

interface NestedRenderPayload {
  name: string;
  version?: unknown;
  parameters?: unknown;
  headers?: unknown;
  baseUrl: string;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Answers the calls server logic makes from inside an isolate: nested renders go back through the
 * render pipeline (and may land on any worker); plugin calls run the registry's plugin in the host.
 * Answers are JSON: `{ok: true, value}` or `{ok: false, message}`.
 */
export function createBridgeAnswerer(pipeline: RenderPipeline, plugins: readonly RegistryPlugin[]) {
  return async ({ op, payload, depth, budget }: BridgeRequest): Promise<string> => {
    try {
      if (op === 'render') {
        const call = JSON.parse(payload) as NestedRenderPayload;
        const { body } = await pipeline.render({
          name: call.name,
          version: typeof call.version === 'string' ? call.version : '',
          parameters: isPlainObject(call.parameters) ? call.parameters : {},
          // The parent's headers are not forwarded unless the component passes them (decisions §8).
          headers: isPlainObject(call.headers) ? (call.headers as Record<string, string>) : {},
          mode: 'rendered',
          depth: depth + 1,
          baseUrl: call.baseUrl,
          budget,
        });
        return JSON.stringify({ ok: true, value: body['html'] });
      }
      const call = JSON.parse(payload) as { name: string; args: unknown[] };
      const plugin = plugins.find((p) => p.name === call.name);
      if (!plugin) return JSON.stringify({ ok: false, message: `Plugin "${call.name}" is not available.` });
      const value = await plugin.func(...call.args);
      return JSON.stringify({ ok: true, value: value === undefined ? null : value });
    } catch (error) {
      return JSON.stringify({ ok: false, message: error instanceof Error ? error.message : String(error) });
    }
  };
}
