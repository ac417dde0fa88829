import type ivm from 'isolated-vm';

/**
 * Starts the work of several versions in one call: each part's batch and call answers go to its
 * version's `__tesseraRunMany`, passed after the parts (each version's function, which runs in its
 * own context). A version's failure to start leaves the others' to start.
 */
const DISPATCH_SOURCE = `(function (parts) {
  'use strict';
  for (let index = 0; index < parts.length; index++) {
    try {
      arguments[index + 1](parts[index][0], parts[index][1]);
    } catch {}
  }
})`;

/**
 * A context of its own in a component's isolate, where no component code ever runs, holding the
 * dispatch function: the executions of all the versions that arrived in one event-loop turn enter
 * the isolate in one call (one crossing to its thread, one answer back), not in one call per version.
 */
export async function createDispatch(isolate: ivm.Isolate): Promise<ivm.Reference> {
  const context = await isolate.createContext();
  return (await context.eval(DISPATCH_SOURCE, { reference: true })) as ivm.Reference;
}
