import { TesseraError } from '../errors/errors';
import { ownThread, threadCpuNs } from './thread-cpu';

/**
 * Where one publish is against its deadline (`limits.publishCheckSeconds`), decided once between
 * the pool's timer in the main thread and the publish thread, in one integer of shared memory: the
 * deadline covers unpacking and checking, which a package can make long, and never the writes that
 * follow (a thread ended while writing could leave quotas taken). Whichever side moves it first
 * from `CHECKING` wins: the thread, once every check passed (the publish goes on to store), or the
 * timer (the thread is ended, the package refused). A thread's event loop is blocked while it
 * parses, so only the main thread can watch the time; the exchange leaves no moment where both win.
 *
 * The deadline is of the thread's CPU time, which a package's content decides, not of the time it
 * waited for a CPU: publish threads run at a lower priority than renders, and on CPUs other work
 * keeps busy an honest package's checks took past 20 s of wall-clock time. A thread that gets
 * little CPU is still ended after WALL_FACTOR times the deadline.
 */
const CHECKING = 0;
const CHECKED = 1;
const EXPIRED = 2;
/** A publish's checks end at this many times `publishCheckSeconds` of wall-clock time, whatever CPU they had. */
const WALL_FACTOR = 4;
/** Whether threads' CPU time can be read here (Linux's /proc). */
const CPU_READABLE = ownThread() !== undefined;
/** How soon the timer looks again at a thread that used less CPU than the deadline. */
const LOOK_AGAIN_MS = 50;

export interface CheckState {
  readonly phase: Int32Array;
  /** The publish thread's kernel id and its CPU time (ns) when it began the task: 0 until it did, or without /proc. */
  readonly thread: BigInt64Array;
}

export const newCheckState = (): CheckState => ({
  phase: new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)),
  thread: new BigInt64Array(new SharedArrayBuffer(2 * BigInt64Array.BYTES_PER_ELEMENT)),
});

/** The thread's side, as it begins: where the timer reads its CPU time from. */
export function checksBegan(state: CheckState): void {
  const own = ownThread();
  if (own === undefined) return;
  state.thread[1] = own.cpuNs;
  Atomics.store(state.thread, 0, BigInt(own.tid));
}

/** The thread's side, once every check passed: throws when the deadline came first, so that nothing is written. */
export function markChecked(state: CheckState, seconds: number): void {
  if (Atomics.compareExchange(state.phase, 0, CHECKING, CHECKED) !== CHECKING) throw checkTooLong(seconds);
}

/**
 * The timer's side: calls `expired` once the checks have used `seconds` of their thread's CPU time
 * (of wall-clock time where it cannot be read), or WALL_FACTOR times that of wall-clock time, and
 * were still running; the thread is then to be ended. Answers a way to stop watching.
 */
export function watchDeadline(state: CheckState, seconds: number, expired: () => void): () => void {
  const started = performance.now();
  const limitMs = seconds * 1000;
  let timer: NodeJS.Timeout;
  const look = (): void => {
    const tid = Number(Atomics.load(state.thread, 0));
    const nowNs = tid === 0 ? undefined : threadCpuNs(tid);
    // A thread not begun yet (starting, under load) has used nothing; without /proc, wall-clock time counts.
    const usedMs = nowNs !== undefined ? Number(nowNs - state.thread[1]!) / 1e6 : tid === 0 && CPU_READABLE ? 0 : performance.now() - started;
    const wallLeftMs = WALL_FACTOR * limitMs - (performance.now() - started);
    if (usedMs < limitMs && wallLeftMs > 0) {
      timer = setTimeout(look, Math.max(LOOK_AGAIN_MS, Math.min(limitMs - usedMs, wallLeftMs)));
      return;
    }
    if (Atomics.compareExchange(state.phase, 0, CHECKING, EXPIRED) === CHECKING) expired();
  };
  timer = setTimeout(look, limitMs);
  return () => clearTimeout(timer);
}

export const checkTooLong = (seconds: number): TesseraError =>
  new TesseraError('PACKAGE_TOO_COMPLEX', `Unpacking and checking the package took more than ${seconds} s (limits.publishCheckSeconds); nothing was stored.`, {
    details: { bound: 'publishCheckSeconds', limit: seconds },
  });
