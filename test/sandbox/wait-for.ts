import { readdirSync, readFileSync } from 'node:fs';
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

/** A thread of a sandbox host, as /proc tells it. */
interface HostThread {
  /** Its name (`comm`). */
  name: string;
  /** Time it ran on a CPU or waited in a run queue for one (ns). */
  runnableNs: bigint;
  /** How many times it went to sleep (waiting on a timer, a lock, a socket…) of its own accord. */
  sleeps: number;
}

/** The threads of the registry's current sandbox hosts, by `pid/tid`; threads and hosts that end as they are read are left out. */
function hostThreads(registry: Registry): Map<string, HostThread> {
  const threads = new Map<string, HostThread>();
  for (const pid of registry.pool.hostProcessIds()) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ');
        const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
        threads.set(`${pid}/${tid}`, {
          name: /^Name:\s+(.*)$/m.exec(status)![1]!,
          runnableNs: BigInt(run!) + BigInt(wait!),
          sleeps: Number(/^voluntary_ctxt_switches:\s+(\d+)$/m.exec(status)![1]),
        });
      } catch {
        // the thread ended
      }
    }
  }
  return threads;
}

/** How many times the threads of the registry's sandbox hosts went to sleep so far: each a wake-up since. */
export function hostsSleeps(registry: Registry): number {
  let sleeps = 0;
  for (const thread of hostThreads(registry).values()) sleeps += thread.sleeps;
  return sleeps;
}

/** How often `hostsRunningWithoutABreak` reads the hosts' threads. */
const THREAD_SAMPLE_MS = 50;
/** A thread that neither slept nor left the CPU's run queue for this long runs code without a break. */
const WITHOUT_A_BREAK_MS = 400;

/**
 * The threads of the registry's sandbox hosts that ran code without a break at some time over the
 * next `ms` (`pid/tid name`): for WITHOUT_A_BREAK_MS at least, they never slept, and ran or waited for
 * a CPU most of the time. A loop left running is caught however busy the machine is, where the share
 * of a core it gets (and so the hosts' CPU use) falls with every other process that wants one: it
 * waits for a CPU instead of running. A thread woken by timers sleeps again between them.
 */
export async function hostsRunningWithoutABreak(registry: Registry, ms: number): Promise<string[]> {
  const samples: Array<{ at: number; threads: Map<string, HostThread> }> = [];
  const end = performance.now() + ms;
  for (;;) {
    samples.push({ at: performance.now(), threads: hostThreads(registry) });
    if (performance.now() >= end) break;
    await new Promise((resolve) => setTimeout(resolve, THREAD_SAMPLE_MS));
  }
  const names = new Map<string, string>();
  for (const { threads } of samples) for (const [id, { name }] of threads) names.set(id, name);
  const found = new Set<string>();
  for (const [id, name] of names) {
    // Since the first sample of the current stretch without sleep.
    let since: { at: number; thread: HostThread } | undefined;
    for (const { at, threads } of samples) {
      const thread = threads.get(id);
      if (!thread || !since || thread.sleeps !== since.thread.sleeps) {
        since = thread && { at, thread };
        continue;
      }
      const stretchMs = at - since.at;
      const runnableMs = Number(thread.runnableNs - since.thread.runnableNs) / 1e6;
      if (stretchMs >= WITHOUT_A_BREAK_MS && runnableMs >= 0.75 * stretchMs) found.add(`${id} ${name}`);
    }
  }
  return [...found];
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
