import { readFileSync, readlinkSync } from 'node:fs';

/**
 * A thread's CPU time, read from Linux's /proc (`schedstat`: nanoseconds on a CPU): the publish
 * deadline counts what a package costs its thread, not the time the thread waited for a CPU that
 * renders and other processes kept busy. Elsewhere (no /proc) nothing is known, and the deadline
 * counts wall-clock time.
 */

/** The calling thread's id in the kernel, and its CPU time so far; undefined without /proc. */
export function ownThread(): { tid: number; cpuNs: bigint } | undefined {
  try {
    // `<pid>/task/<tid>`
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    const cpuNs = threadCpuNs(tid);
    return Number.isInteger(tid) && cpuNs !== undefined ? { tid, cpuNs } : undefined;
  } catch {
    return undefined;
  }
}

/** The CPU time so far of this process's thread `tid`; undefined once it ended, or without /proc. */
export function threadCpuNs(tid: number): bigint | undefined {
  try {
    return BigInt(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]!);
  } catch {
    return undefined;
  }
}
