import path from 'node:path';
import type { BenchRequest } from './scenario';
import { AT_RUN_CONNECTIONS } from './scenarios/against-oc';
import { BATCH_REQUEST } from './scenarios/batch';
import { startServerProcess, type ServerProcess } from './server-process';

/** The loads two checkouts are compared under (side-by-side.ts, after-a-pause.ts), by name. */
export const LOADS: Record<string, BenchRequest> = {
  render: { method: 'GET', path: 'hello-world?name=Ada' },
  'batch-5': BATCH_REQUEST,
  nested: { method: 'GET', path: 'bench-nested-parent' },
  // against-oc's loads of the OC-authored greeting (`oc-batch-5, 4 versions` and the others).
  ...Object.fromEntries(AT_RUN_CONNECTIONS.map((comparison) => [comparison.scenario, comparison.request])),
};

/**
 * A built checkout's own registry (`dist/bench/servers/registry-server.js`) over `storagePath`,
 * started with that checkout's own Node flags (`dist/src/node-flags.js`): a change of flags is then
 * measured as a change of code is.
 */
export function startCheckoutRegistry(checkout: string, storagePath: string): Promise<ServerProcess> {
  const dist = path.resolve(checkout, 'dist');
  const { NODE_FLAGS } = require(path.join(dist, 'src', 'node-flags.js')) as { NODE_FLAGS: readonly string[] };
  return startServerProcess(path.join(dist, 'bench', 'servers', 'registry-server.js'), { storagePath }, NODE_FLAGS);
}
