import type { SandboxHost } from './sandbox-host';

/**
 * Executions of one component on its home host past which the next go to another host (a hot
 * component). Kept on one host, a component's executions share frames and calls into its isolate,
 * and fewer hosts wake: at 32 rather than 4, rendered GETs, batches and nested renders took 8–12 %
 * less CPU each, and at 64 rather than 32 (a front thread's share of `maxConcurrentPerComponent`
 * on two threads) a batch of one component's items took a sixth less host CPU and warmed no second
 * host (bench/FINDINGS.md); a component whose isolate is busy without a break spreads earlier.
 */
const SPREAD_AT = 64;

/** The slot of a component's home host among `slots`: the same for every front thread (FNV-1a of its name). */
export function homeSlot(component: string, slots: number): number {
  let hash = 2166136261;
  for (let index = 0; index < component.length; index++) hash = Math.imul(hash ^ component.charCodeAt(index), 16777619);
  return (hash >>> 0) % slots;
}

/** Of two hosts both hot or busy with the component: one not busy with it, else the one running fewer of it. */
const betterFor = (component: string, host: SandboxHost, than: SandboxHost): boolean =>
  host.busyWith(component) !== than.busyWith(component) ? !host.busyWith(component) : host.inflightOf(component) < than.inflightOf(component);

/** Whether a ready host takes executions of the component calmly: not busy with it, not hot with it. */
const calmFor = (component: string, host: SandboxHost | undefined): host is SandboxHost =>
  host?.state === 'ready' && !host.busyWith(component) && host.inflightOf(component) < SPREAD_AT;

/** Whether this front has SPREAD_AT or more executions of the component under way, on any host. */
function isHot(slots: ReadonlyArray<SandboxHost | undefined>, component: string): boolean {
  let inflight = 0;
  for (const host of slots) inflight += host?.inflightOf(component) ?? 0;
  return inflight >= SPREAD_AT;
}

/**
 * The ready host for a component: its home host, which keeps all its warm versions (contexts of
 * the component's isolates there), unless the component is hot there or its isolate there is busy
 * running code (a loop its calm requests would wait behind until the time limit); then the next
 * host free of both, else the one least taken by it. With several front threads, a component hot
 * on this one goes to the thread's own host (`ownSlot`) first: each thread then feeds its hosts in
 * bigger batches, where all threads feeding all hosts cost every one more writes and wake-ups.
 */
export function pickHost(slots: ReadonlyArray<SandboxHost | undefined>, component: string, ownSlot: number | undefined): SandboxHost | undefined {
  if (ownSlot !== undefined && isHot(slots, component)) {
    const host = slots[ownSlot % slots.length];
    if (host?.state === 'ready' && !host.busyWith(component)) return host;
  }
  const home = homeSlot(component, slots.length);
  let best: SandboxHost | undefined;
  for (let step = 0; step < slots.length; step++) {
    const host = slots[(home + step) % slots.length];
    if (host?.state !== 'ready') continue;
    if (calmFor(component, host)) return host;
    if (best === undefined || betterFor(component, host, best)) best = host;
  }
  return best;
}

/** A nested render's caller's host, when it takes executions of the child's component as calmly as its home host would. */
export const nearHost = (callerHost: SandboxHost | undefined, component: string): SandboxHost | undefined => (calmFor(component, callerHost) ? callerHost : undefined);
