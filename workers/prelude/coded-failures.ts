import type { Intrinsics } from './intrinsics';

/**
 * An execution's answer as the prelude hands it to the host: its JSON, and whether it is the memory
 * limit speaking from inside (an ArrayBuffer refused, a result too large, too many Intl objects),
 * which makes the host retire the isolate.
 */
export interface PreludeAnswer {
  readonly json: string;
  readonly memory: boolean;
}

/**
 * Runs INSIDE each isolate (see prelude-source.ts; self-contained, injected as text): the coded
 * failures. Only errors made here carry a code and details, kept in this closure: a component cannot
 * forge one, nor rewrite the code or details of one it caught, by setting properties on it. A
 * failure leaves the sandbox bounded like a result.
 */
export function codedFailures(intrinsics: Intrinsics, maxResultChars: number) {
  'use strict';
  const { stringify, ErrorCtor, RangeErrorCtor } = intrinsics;
  const MAX_MESSAGE_CHARS = 1000;
  const codeOf = new WeakMap<object, { code: string; details: object | undefined }>();
  const coded = (code: string, message: string, details?: object) => {
    const error = new ErrorCtor(message);
    codeOf.set(error, { code, details });
    return error;
  };
  const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);
  const answer = (json: string): PreludeAnswer => ({ json, memory: false });
  const tooLarge = (): PreludeAnswer => ({
    json: stringify({ ok: false, code: 'MEMORY_LIMIT_EXCEEDED', message: `The component's result is larger than the ${maxResultChars} characters allowed to leave the sandbox.` }),
    memory: true,
  });
  const NOT_SERIALIZABLE = answer(stringify({ ok: false, code: 'RENDER_ERROR', message: 'The view model is not JSON-serializable.' }));
  const isObject = (value: unknown): value is object => value !== null && (typeof value === 'object' || typeof value === 'function');
  const UNREADABLE = { message: 'The component threw a value that cannot be read.', status: undefined, allocationFailed: false };
  /** What a thrown value says: a getter or a proxy that throws makes it unreadable, never a second throw. */
  function readThrown(error: unknown): { message: string; status: number | undefined; allocationFailed: boolean } {
    try {
      const fields = isObject(error) ? (error as { message?: unknown; status?: unknown }) : undefined;
      const status = fields?.status;
      const message = String(typeof fields?.message === 'string' ? fields.message : error);
      return {
        message: clip(message, MAX_MESSAGE_CHARS),
        status: typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 ? status : undefined,
        allocationFailed: error instanceof RangeErrorCtor && message === 'Array buffer allocation failed',
      };
    } catch {
      return UNREADABLE;
    }
  }

  /**
   * A failure as the JSON the host reads; codes set by this prelude survive, anything else gets
   * `fallbackCode`. Bounded like a result: it leaves the sandbox too.
   */
  function fail(error: unknown, fallbackCode: string): PreludeAnswer {
    const known = isObject(error) ? codeOf.get(error) : undefined;
    const { message, status, allocationFailed } = readThrown(error);
    // The allocator refusing an ArrayBuffer is the memory limit speaking; the heap itself is
    // fine, so this isolate is kept until its executions end.
    if (allocationFailed) return { json: stringify({ ok: false, code: 'MEMORY_LIMIT_EXCEEDED', message: 'The component passed its sandbox memory limit.' }), memory: true };
    const code = known ? known.code : fallbackCode;
    const json = stringify({ ok: false, code, status, message, details: known?.details });
    return json.length > maxResultChars ? tooLarge() : { json, memory: code === 'MEMORY_LIMIT_EXCEEDED' };
  }

  /** A successful outcome as the JSON the host reads, unless it is too large to leave. */
  const bounded = (json: string): PreludeAnswer => (json.length > maxResultChars ? tooLarge() : answer(json));

  return { coded, clip, fail, answer, bounded, NOT_SERIALIZABLE };
}

export type CodedFailures = ReturnType<typeof codedFailures>;
