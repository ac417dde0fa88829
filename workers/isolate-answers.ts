/**
 * An execution's answer as its isolate's host holds it: the JSON the front gets, and whether the
 * isolate must go once its executions end. Failures the host makes say which limit they are, the
 * reason an isolate that went with a failed task is disposed for.
 */
export interface IsolateAnswer {
  readonly json: string;
  readonly retire: boolean;
  readonly limit?: 'timeout' | 'memory';
  /** What the isolate kept of an execution a tail watches (JSON), with its own answer. */
  readonly tail?: string;
}

const failure = (code: string, message: string, limit?: 'timeout' | 'memory'): IsolateAnswer => ({
  json: JSON.stringify({ ok: false, code, message }),
  retire: limit === 'memory',
  limit,
});

export const TIMEOUT_FAILURE = failure('EXECUTION_TIMEOUT', 'The component passed its execution time limit.', 'timeout');
export const MEMORY_FAILURE = failure('MEMORY_LIMIT_EXCEEDED', 'The component passed its sandbox memory limit; its sandbox was discarded.', 'memory');
export const RECYCLED_FAILURE = failure('SANDBOX_CRASHED', 'The sandbox running the component was recycled during the execution.');

/** A coded failure of the component itself: its isolate is kept. */
export const componentFailure = (code: string, message: string): IsolateAnswer => failure(code, message);

/** The answer of an execution that was cancelled: the host sends nothing for it. */
export const CANCELLED = 'cancelled';
export const CANCELLED_ANSWER: IsolateAnswer = { json: CANCELLED, retire: false };

/** What a bridge call of an execution that has ended gets: the prelude then never resumes the caller. */
export const ENDED = '{"ok":false,"ended":true}';
