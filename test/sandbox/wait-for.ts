import { readFileSync } from 'node:fs';
import type { Registry } from '../../src/registry';

/** Polls until the condition holds (the test's own timeout bounds the wait; `eventually` of ../cli/run-cli gives up sooner). */
export async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Waits until every sandbox host has started and answers, so that timings do not include a host's start. */
export async function hostsUp(registry: Registry, hosts: number): Promise<void> {
  await until(async () => registry.pool.stats().hosts === hosts);
}

/** Waits until the hosts hold at least `count` warm isolates (one per component version being run). */
export async function warmIsolates(registry: Registry, count: number): Promise<void> {
  await until(async () => registry.pool.stats().warmIsolates >= count);
}

/** Resident memory of the registry's sandbox hosts now, summed, read from /proc. */
export function hostsResidentBytes(registry: Registry): number {
  let bytes = 0;
  for (const pid of registry.pool.hostProcessIds()) {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    bytes += Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)![1]) * 1024;
  }
  return bytes;
}

/** CPU time (user and system) the registry's current sandbox hosts have used, in milliseconds, read from /proc. */
export function hostsCpuMs(registry: Registry): number {
  let ticks = 0;
  for (const pid of registry.pool.hostProcessIds()) {
    // The fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

/** CPU the hosts use over the next `ms`, as a share of one core. */
export async function hostsCpuShare(registry: Registry, ms: number): Promise<number> {
  const before = hostsCpuMs(registry);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return (hostsCpuMs(registry) - before) / ms;
}

/**
 * Polls a counter until it passes `before` or `ms` have gone by, and answers its last value: for
 * what may or may not follow an answer (an isolate found lost a moment after its execution was answered).
 */
export async function countAfter(read: () => Promise<number>, before: number, ms: number): Promise<number> {
  const until = performance.now() + ms;
  let value = await read();
  while (value <= before && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await read();
  }
  return value;
}
