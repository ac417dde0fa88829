/**
 * Runs INSIDE each isolate, first of the prelude (see prelude-source.ts): takes the built-ins the
 * prelude relies on before any tenant code runs, so no component can replace one under it
 * (`JSON.stringify = …` before its hardening, a poisoned `Promise`). Self-contained: it is injected
 * as text.
 */
export function captureIntrinsics() {
  'use strict';
  return {
    stringify: JSON.stringify,
    parse: JSON.parse,
    ErrorCtor: Error,
    TypeErrorCtor: TypeError,
    RangeErrorCtor: RangeError,
    PromiseCtor: Promise,
    SharedArrayBufferCtor: SharedArrayBuffer,
    Int32ArrayCtor: Int32Array,
    atomicsWait: Atomics.wait,
    isArray: Array.isArray,
    keys: Object.keys,
    hasOwn: Object.hasOwn,
    freeze: Object.freeze,
    createObject: Object.create,
    defineProperty: Object.defineProperty,
  };
}

/** The built-ins every part of the prelude was handed, as they were before tenant code ran. */
export type Intrinsics = ReturnType<typeof captureIntrinsics>;
