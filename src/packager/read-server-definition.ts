import ivm from 'isolated-vm';
import { TesseraError } from '../errors/errors';
import { installPrelude } from '../../workers/isolate-prelude';
import type { ParameterDefinition } from '../descriptor/descriptor-types';

export interface ServerDescription {
  kind: 'modern' | 'legacy';
  parameters: Record<string, ParameterDefinition>;
  actions: string[];
}

/**
 * Evaluates a server bundle in a throw-away isolate (never in the packager's own realm) to read
 * what a modern entry declares with `withParameters` and `.action`.
 */
export async function readServerDefinition(serverCode: string): Promise<ServerDescription> {
  const isolate = new ivm.Isolate({ memoryLimit: 64 });
  try {
    const context = await isolate.createContext();
    const noBridge = new ivm.Reference(() => JSON.stringify({ ok: false, message: 'Not available while packaging.' }));
    await context.evalClosure(`(${installPrelude.toString()})(globalThis, $0, 1e6);`, [noBridge], { arguments: { reference: true } });
    const loaded = JSON.parse(
      (await context.eval(`__tesseraDefineServer(function(module, exports, require){${serverCode}\n});`, { timeout: 5000 })) as string,
    ) as { ok: boolean; message?: string };
    if (!loaded.ok) throw new TesseraError('PACKAGE_NOT_VALID', 'The server entry fails when loaded.', { details: { problems: [loaded.message ?? 'unknown failure'] } });
    const described = JSON.parse((await context.eval('__tesseraDescribe()', { timeout: 5000 })) as string) as {
      kind: string;
      parameters?: Record<string, ParameterDefinition>;
      actions?: string[];
    };
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
    isolate.dispose();
  }
}
