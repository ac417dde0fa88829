import path from 'node:path';
import { temporaryFolder } from './bench-storage';
import type { BenchRequest } from './scenario';
import { AT_RUN_CONNECTIONS } from './scenarios/against-oc';
import { BATCH_REQUEST } from './scenarios/batch';
import { startServerProcess, type ServerProcess } from './server-process';
import { packageSharedStorage } from './shared-storage';

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

export type CheckoutLabel = 'A' | 'B';

/**
 * Runs `once` for two checkouts in alternating pairs over one packaged storage (A B, then B A: a
 * drift of the machine's load weighs on both alike); answers each checkout's runs in their order.
 */
export async function alternatingRuns<Run>(
  checkouts: Record<CheckoutLabel, string>,
  pairs: number,
  once: (checkout: string, label: CheckoutLabel, storagePath: string) => Promise<Run>,
): Promise<Record<CheckoutLabel, Run[]>> {
  const storage = await temporaryFolder('checkouts');
  const copies = await temporaryFolder('oc-authored');
  try {
    await packageSharedStorage(storage.path, copies.path);
    const runs: Record<CheckoutLabel, Run[]> = { A: [], B: [] };
    for (let pair = 0; pair < pairs; pair++) {
      for (const label of pair % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) runs[label].push(await once(checkouts[label], label, storage.path));
    }
    return runs;
  } finally {
    await storage.remove();
    await copies.remove();
  }
}
