/**
 * An execution's life in its isolate, as an explicit state with its allowed moves. Every move is
 * checked where it happens (`moveTo`): an impossible one is a bug, and throws, so a test sees it.
 *
 * - `queued`: taken by the isolate (its version's context built), waiting for the next entry into it;
 * - `running`: entered: its code may run;
 * - `waiting`: it has bridge calls out (nested renders, plugins) the front has not answered yet;
 * - `answered`: its answer came from inside, held until the task that produced it ends (nothing may
 *   resume it any more);
 * - `cancelled`: its caller was answered first (its root request ended): nothing more is sent for it;
 * - `expired`: its deadline (its caller's budget, shorter than its own limit) passed: its caller got
 *   EXECUTION_TIMEOUT, nothing more is sent for it;
 * - `ended`: out of the table, its answer given (or withheld, once cancelled or expired);
 * - `disposed`: out of the table because its isolate went (a limit, an eviction, a loss).
 *
 * Code of a cancelled or expired execution may still run: it is bounded by its call's own time limit
 * (execution-timers.ts), and ends `ended` or `disposed` like any other.
 */
export type ExecutionState = 'queued' | 'running' | 'waiting' | 'answered' | 'cancelled' | 'expired' | 'ended' | 'disposed';

const MOVES: Readonly<Record<ExecutionState, readonly ExecutionState[]>> = {
  queued: ['running', 'cancelled', 'expired', 'disposed'],
  running: ['waiting', 'answered', 'cancelled', 'expired', 'ended', 'disposed'],
  waiting: ['running', 'answered', 'cancelled', 'expired', 'ended', 'disposed'],
  answered: ['cancelled', 'expired', 'ended', 'disposed'],
  cancelled: ['ended', 'disposed'],
  expired: ['ended', 'disposed'],
  ended: [],
  disposed: [],
};

/** A move no execution may make: a bug of the isolate's bookkeeping. */
export class ImpossibleMove extends Error {
  override readonly name = 'ImpossibleMove';

  constructor(from: ExecutionState, to: ExecutionState) {
    super(`An execution cannot move from ${from} to ${to}.`);
  }
}

/** What has a state of its life (an execution of the isolate's table). */
export interface Stateful {
  state: ExecutionState;
}

/** Moves `execution` to `to`, or throws ImpossibleMove. */
export function moveTo(execution: Stateful, to: ExecutionState): void {
  if (!MOVES[execution.state].includes(to)) throw new ImpossibleMove(execution.state, to);
  execution.state = to;
}

/** Its caller still waits for it: nothing ended, answered or let it go. */
export const isLive = (state: ExecutionState): boolean => state === 'queued' || state === 'running' || state === 'waiting';

/** Its caller was let go (cancelled, or its deadline passed): nothing more is sent for it. */
export const isLetGo = (state: ExecutionState): boolean => state === 'cancelled' || state === 'expired';
