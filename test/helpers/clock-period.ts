import { setTimeout as sleep } from 'node:timers/promises';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/**
 * Rate quotas count per clock minute or hour (UTC: each starts at a multiple of its length since the
 * epoch, src/tenants/quota-folders.ts). A test that fills one and expects the next request refused
 * would see a fresh period's units if the clock turned in between: when fewer than `neededMs` of this
 * period are left, it starts in the next one. An allowance for a busy machine, never a bound on how
 * long the requests take.
 */
export async function startWithinOnePeriod(periodMs: number, neededMs: number): Promise<void> {
  const left = periodMs - (Date.now() % periodMs);
  if (left < neededMs) await sleep(left + 100);
}
