import { TesseraError } from '../errors/errors';

/**
 * Where one publish is against its deadline (`limits.publishCheckSeconds`), decided once between
 * the pool's timer in the main thread and the publish thread, in one integer of shared memory: the
 * deadline covers unpacking and checking, which a package can make long, and never the writes that
 * follow (a thread ended while writing could leave quotas taken). Whichever side moves it first
 * from `CHECKING` wins: the thread, once every check passed (the publish goes on to store), or the
 * timer (the thread is ended, the package refused). A thread's event loop is blocked while it
 * parses, so only the main thread can watch the time; the exchange leaves no moment where both win.
 */
const CHECKING = 0;
const CHECKED = 1;
const EXPIRED = 2;

export type CheckState = Int32Array;

export const newCheckState = (): CheckState => new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));

/** The timer's side: answers whether the checks were still running, now expired (the thread is to be ended). */
export const expireCheck = (state: CheckState): boolean => Atomics.compareExchange(state, 0, CHECKING, EXPIRED) === CHECKING;

/** The thread's side, once every check passed: throws when the deadline came first, so that nothing is written. */
export function markChecked(state: CheckState, seconds: number): void {
  if (Atomics.compareExchange(state, 0, CHECKING, CHECKED) !== CHECKING) throw checkTooLong(seconds);
}

export const checkTooLong = (seconds: number): TesseraError =>
  new TesseraError('PACKAGE_TOO_COMPLEX', `Unpacking and checking the package took more than ${seconds} s (limits.publishCheckSeconds); nothing was stored.`, {
    details: { bound: 'publishCheckSeconds', limit: seconds },
  });
