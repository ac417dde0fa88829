import type { IsolateMessage, IsolateMessageKinds } from '../isolate-messages';
import type { CodedFailures } from './coded-failures';
import type { Intrinsics } from './intrinsics';

/** The synchronous bridge (plugins) as seen from inside the isolate (an isolated-vm Reference). */
export interface HostBridge {
  applyIgnored(receiver: undefined, args: unknown[], options: object): void;
  applySync(receiver: undefined, args: unknown[], options: object): string;
}

/**
 * Posts messages to the host (an isolated-vm Reference to a host function), in the order they were
 * made (workers/isolate-messages.ts says what each holds).
 */
export interface HostDelivery {
  applyIgnored(receiver: undefined, args: unknown[], options: object): void;
}

/**
 * Runs INSIDE each isolate (see prelude-source.ts; self-contained, injected as text): the two bridges
 * to the host. Messages (answers, nested renders) go asynchronously, in order; plugin calls answer
 * synchronously, as in OC. Arguments leave as bounded JSON.
 */
export function hostBridges(
  intrinsics: Intrinsics,
  bridge: HostBridge,
  deliver: HostDelivery,
  kinds: IsolateMessageKinds,
  failures: CodedFailures,
  maxPayloadChars: number,
  resumed: (execId: number) => void,
) {
  'use strict';
  const { parse, stringify, ErrorCtor, RangeErrorCtor, PromiseCtor, SharedArrayBufferCtor, Int32ArrayCtor, atomicsWait, createObject } = intrinsics;
  const { coded } = failures;

  /** The JSON of a bridge call's arguments, refused here when too large to cross. */
  const payloadOf = (op: string, payload: unknown): string => {
    const json = stringify(payload);
    if (json.length > maxPayloadChars) {
      throw new RangeErrorCtor(`The arguments of a ${op === 'render' ? 'nested render' : 'plugin call'} are over ${maxPayloadChars} characters.`);
    }
    return json;
  };
  // Messages go to the host together: those posted in one wave of microtasks (the executions of one
  // batch usually answer in the same one) in one `deliver`, a task for the host's thread, instead of
  // one each. They are sent by a microtask of the same task, and the host holds an answer until its
  // task ends in any case (see workers/isolate-entries.ts), so no answer stands any sooner or later.
  // One list keeps their order: an answer given before a call of the same execution reaches the host first.
  let posted: IsolateMessage[] = [];
  const promiseThen = PromiseCtor.prototype.then;
  const settled = PromiseCtor.resolve();
  const sendPosted = (): void => {
    if (posted.length === 0) return;
    const messages = posted;
    posted = [];
    deliver.applyIgnored(undefined, [messages], { arguments: { copy: true } });
  };
  const post = (message: IsolateMessage): void => {
    if (posted.push(message) === 1) promiseThen.call(settled, sendPosted);
  };

  /** The never-settling promise a call of an ended execution gets: nothing of that execution resumes. */
  const never = () => new PromiseCtor(() => {});
  // Executions that produced their answer while calls of theirs were still out, with how many: an
  // answer to such a call must not resume them (decided here, in the isolate's own order, whatever
  // the order in which the host learns of the answer and of the call's result).
  const answeredWithCallsOut = new Map<number, number>();
  const callsOut = new Map<number, number>();
  const callReturned = (execId: number): boolean => {
    const out = (callsOut.get(execId) ?? 1) - 1;
    if (out > 0) callsOut.set(execId, out);
    else callsOut.delete(execId);
    const afterAnswer = answeredWithCallsOut.get(execId);
    if (afterAnswer === undefined) return false;
    if (afterAnswer > 1) answeredWithCallsOut.set(execId, afterAnswer - 1);
    else answeredWithCallsOut.delete(execId);
    return true;
  };
  const answerOf = (answer: string): unknown => {
    const parsed = parse(answer);
    if (parsed.ok) return parsed.value;
    if (parsed.ended) return never();
    // A code the host attaches (a nesting too deep) stays the request's code if the component lets it through.
    throw parsed.code ? coded(parsed.code, parsed.message) : new ErrorCtor(parsed.message);
  };

  // Calls to the host waiting for its answer, by call id: the host answers them when it next enters
  // the isolate (`__tesseraRunMany`), so the code they resume runs in a call of the host's own. An
  // object, not a Map, for the reason src/sandbox/id-table.ts gives (this function cannot import it).
  const waitingCalls: Record<number, (answer: string) => void> = createObject(null);
  let nextCall = 1;
  const callHost = (execId: number, op: string, payload: unknown): Promise<unknown> => {
    let json: string;
    try {
      json = payloadOf(op, payload);
    } catch (error) {
      return PromiseCtor.reject(error);
    }
    callsOut.set(execId, (callsOut.get(execId) ?? 0) + 1);
    const callId = nextCall++;
    return new PromiseCtor<string>((resolve) => {
      waitingCalls[callId] = resolve;
      post([kinds.call, execId, callId, op, json]);
    }).then((answer: string) => {
      // The caller's code runs next: its console lines are its own (tail-capture.ts).
      resumed(execId);
      return callReturned(execId) ? never() : answerOf(answer);
    });
  };

  // Plugins answer synchronously, as in OC. Not with `applySyncPromise`, which needs the host's thread
  // free for the whole call: the call is sent without waiting, this isolate's thread sleeps on a shared
  // flag the host raises when the answer is in, and a synchronous call (no promise involved) fetches
  // it. A timed-out or disposed isolate is woken by V8 itself.
  const callHostSync = (execId: number, op: string, payload: unknown): unknown => {
    const json = payloadOf(op, payload);
    // What was posted before this call reaches the host first (an answer given, a call made).
    sendPosted();
    const signal = new Int32ArrayCtor(new SharedArrayBufferCtor(4));
    bridge.applyIgnored(undefined, [execId, op, json, signal.buffer], { arguments: { copy: true } });
    atomicsWait(signal, 0, 0);
    const parsed = parse(bridge.applySync(undefined, [execId, `${op}-answer`, ''], { arguments: { copy: true }, result: { copy: true } }));
    if (parsed.ok) return parsed.value;
    throw new ErrorCtor(parsed.ended ? 'The request was already answered.' : parsed.message);
  };

  /**
   * An execution answered: calls of it still out resume nothing; the answer goes to the host, asking
   * it to retire the isolate if it must, with what a tail gets of it when one watches it.
   */
  const postAnswer = (execId: number, json: string, retire: boolean, tail: string | undefined): void => {
    const out = callsOut.get(execId);
    if (out !== undefined) answeredWithCallsOut.set(execId, out);
    post(tail === undefined ? [kinds.answered, execId, json, retire] : [kinds.answered, execId, json, retire, tail]);
  };

  /**
   * A console line of an execution a tail watches (or `cut`, once past the bound), sent at once, not
   * by a microtask: code that loops after logging never lets one run, and the line must reach the
   * host before a limit stops the isolate. What was posted before goes first.
   */
  const postLine = (execId: number, level: string, message: string | undefined): void => {
    post(message === undefined ? [kinds.line, execId, true] : [kinds.line, execId, level, message]);
    sendPosted();
  };

  /** The host's answers to earlier calls, as it enters the isolate: each resumes its caller. */
  const answerCalls = (callAnswers: Array<[number, string]>): void => {
    for (const [callId, answer] of callAnswers) {
      const resolve = waitingCalls[callId];
      delete waitingCalls[callId];
      resolve?.(answer);
    }
  };

  return { callHost, callHostSync, postAnswer, postLine, answerCalls };
}

export type HostBridges = ReturnType<typeof hostBridges>;
