import type { CodedFailures } from './coded-failures';

/**
 * Runs INSIDE each isolate (see prelude-source.ts; self-contained, injected as text): bounds what
 * Intl holds outside the heap. Intl objects keep their ICU data outside the V8 heap, where the memory
 * limit does not see it (about 27 KB each for a DateTimeFormat): each creation is counted. Past
 * INTL_RECYCLE_AT an answer asks the host to rebuild this isolate once idle, which frees them; past
 * INTL_REFUSE_AT (within one isolate's life) creating another throws. Answers whether the isolate
 * should be recycled now.
 */
export function boundIntl(global: any, failures: CodedFailures): () => boolean {
  'use strict';
  const { coded } = failures;
  const INTL_RECYCLE_AT = 1000;
  const INTL_REFUSE_AT = 2000;
  let intlObjects = 0;
  const intl = global.Intl;
  const construct = Reflect.construct;
  for (const name of Object.getOwnPropertyNames(intl)) {
    const Original = intl[name];
    if (typeof Original !== 'function' || !/^[A-Z]/.test(name)) continue;
    const Counted = function (this: unknown, ...args: unknown[]) {
      if (++intlObjects > INTL_REFUSE_AT) {
        throw coded('MEMORY_LIMIT_EXCEEDED', `The component created more than ${INTL_REFUSE_AT} Intl objects in its sandbox, which holds them outside its memory limit.`);
      }
      return construct(Original, args, new.target === undefined || new.target === Counted ? Original : new.target);
    };
    for (const key of Object.getOwnPropertyNames(Original)) {
      if (key !== 'length' && key !== 'name' && key !== 'prototype') Object.defineProperty(Counted, key, Object.getOwnPropertyDescriptor(Original, key)!);
    }
    Object.defineProperty(Counted, 'name', { value: name });
    Counted.prototype = Original.prototype;
    Object.defineProperty(Original.prototype, 'constructor', { value: Counted, writable: true, configurable: true });
    intl[name] = Counted;
  }
  // A Segmenter keeps a copy of each text it segments in ICU, outside the heap too: a text counts as
  // many Intl objects as its copy weighs (two bytes a character, an object counted as 27 KB).
  // `Intl.v8BreakIterator`, V8's own older form of it, is removed.
  const CHARS_PER_INTL_OBJECT = 13_500;
  delete intl.v8BreakIterator;
  const segment = intl.Segmenter.prototype.segment;
  const toText = String;
  Object.defineProperty(intl.Segmenter.prototype, 'segment', {
    value: function (this: unknown, text: unknown) {
      // Converted once: a text whose toString answers differently each time is counted as it is segmented.
      const string = toText(text);
      intlObjects += Math.floor(string.length / CHARS_PER_INTL_OBJECT);
      if (++intlObjects > INTL_REFUSE_AT) {
        throw coded('MEMORY_LIMIT_EXCEEDED', `The component segmented more text than its sandbox may hold outside its memory limit (${INTL_REFUSE_AT} Intl objects' worth).`);
      }
      return segment.call(this, string);
    },
    writable: true,
    configurable: true,
  });
  return () => intlObjects >= INTL_RECYCLE_AT;
}
