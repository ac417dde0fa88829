/**
 * What an isolate tells its host, as typed values: the prelude (workers/prelude/host-bridges.ts) posts
 * them in the order they happened, a list at a time, copied as plain arrays (cheap to copy, the hot
 * path: one per execution at least). The prelude cannot import: the kinds go into it as an argument.
 */
export const MESSAGE_KINDS = { answered: 0, call: 1, line: 2 } as const;

export type IsolateMessageKinds = typeof MESSAGE_KINDS;

/**
 * - an execution's answer: its JSON for the front, and whether the isolate must be retired once its
 *   executions end (the memory limit spoke from inside: an ArrayBuffer refused, a result too large,
 *   too many Intl objects; or it holds too much outside its heap); for an execution a tail watches,
 *   what the tail gets of it (JSON: how many console lines were dropped, exception);
 * - a nested render an execution asks for (a bridge call answered with the isolate's next entry);
 * - a console line of an execution a tail watches, sent as it is logged, so that it outlives an
 *   isolate stopped by a limit; `cut` instead once its lines pass the bound (sent once).
 */
export type IsolateMessage =
  | readonly [kind: IsolateMessageKinds['answered'], execution: number, answer: string, retire: boolean, tail?: string]
  | readonly [kind: IsolateMessageKinds['call'], execution: number, call: number, op: string, payload: string]
  | readonly [kind: IsolateMessageKinds['line'], execution: number, level: string, message: string]
  | readonly [kind: IsolateMessageKinds['line'], execution: number, cut: true];
