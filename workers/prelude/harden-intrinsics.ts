/**
 * Runs INSIDE each isolate after the prelude and before tenant code (injected with
 * `Function.prototype.toString`, so it must stay self-contained).
 *
 * Removes WebAssembly, then freezes every built-in reachable from the global object, so a
 * component cannot poison the built-ins that its later requests (or concurrent ones in the same
 * isolate) rely on. Assigning a property that a frozen prototype defines (`err.name = …`,
 * `obj.toString = …`, the "override mistake") keeps working on the instance, as in the SES lockdown.
 */
export function hardenIntrinsics(global: any): void {
  'use strict';
  const { getOwnPropertyNames, getOwnPropertySymbols, getOwnPropertyDescriptor, defineProperty, getPrototypeOf, freeze, isFrozen } = Object;
  const ownKeys = (o: object) => [...getOwnPropertyNames(o), ...getOwnPropertySymbols(o)];

  const tameOverrideMistake = (proto: any) => {
    for (const key of ownKeys(proto)) {
      const descriptor = getOwnPropertyDescriptor(proto, key)!;
      if (!('value' in descriptor) || !descriptor.configurable) continue;
      const value = descriptor.value;
      defineProperty(proto, key, {
        get() {
          return value;
        },
        set(this: object, next: unknown) {
          if (this === proto) throw new TypeError(`Cannot assign to read only property '${String(key)}' of a built-in prototype.`);
          defineProperty(this, key, { value: next, writable: true, enumerable: true, configurable: true });
        },
        enumerable: descriptor.enumerable,
        configurable: false,
      });
    }
  };
  const errorPrototypes = ['Error', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'AggregateError']
    .filter((name) => typeof global[name] === 'function')
    .map((name) => global[name].prototype);
  for (const proto of [Object.prototype, Function.prototype, ...errorPrototypes]) tameOverrideMistake(proto);

  const seen = new Set<unknown>();
  const deepFreeze = (root: unknown) => {
    const stack = [root];
    while (stack.length > 0) {
      const value = stack.pop();
      if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue;
      seen.add(value);
      if (!isFrozen(value)) freeze(value);
      stack.push(getPrototypeOf(value));
      for (const key of ownKeys(value as object)) {
        const descriptor = getOwnPropertyDescriptor(value, key);
        if (!descriptor) continue;
        stack.push(descriptor.value, descriptor.get, descriptor.set);
      }
    }
  };

  // WebAssembly memories live outside the V8 heap and escape the isolate's memory limit (a tenant
  // could commit gigabytes), so the sandbox has no WebAssembly.
  delete global.WebAssembly;

  // An isolate runs one thread: nothing tenant code starts can ever wake `Atomics.wait`, so a call
  // only parks an isolate thread of the host until the time limit (the prelude keeps its own copy
  // for plugin calls, which the host does wake).
  delete global.Atomics.wait;
  delete global.Atomics.waitAsync;

  // Resizable and growable buffers (`new ArrayBuffer(n, {maxByteLength})`) reserve and commit memory
  // outside the isolate's allocator, escaping its memory limit too: their constructors refuse the
  // option. Each replacement shares the original's prototype (so `instanceof` holds) and becomes its
  // `constructor`, so no path leads back to the original.
  for (const name of ['ArrayBuffer', 'SharedArrayBuffer']) {
    const Original = global[name];
    if (typeof Original !== 'function') continue;
    const construct = Reflect.construct;
    const FixedLength = function (this: unknown, length: unknown, options?: unknown) {
      if (new.target === undefined) throw new TypeError(`Constructor ${name} requires 'new'`);
      if (options !== undefined && options !== null && typeof options === 'object' && (options as { maxByteLength?: unknown }).maxByteLength !== undefined) {
        throw new RangeError(`Resizable buffers are not available in the sandbox: ${name} takes no maxByteLength.`);
      }
      return construct(Original, [length], new.target === FixedLength ? Original : new.target);
    };
    for (const key of ownKeys(Original)) {
      if (key !== 'length' && key !== 'name' && key !== 'prototype') defineProperty(FixedLength, key, getOwnPropertyDescriptor(Original, key)!);
    }
    defineProperty(FixedLength, 'name', { value: name });
    defineProperty(FixedLength, 'length', { value: 1 });
    FixedLength.prototype = Original.prototype;
    defineProperty(Original.prototype, 'constructor', { value: FixedLength, writable: true, enumerable: false, configurable: true });
    global[name] = FixedLength;
  }

  /* Intrinsics that no global names but tenant code can still reach. */
  const hidden = [
    getPrototypeOf(function* () {}),
    getPrototypeOf(async function () {}),
    getPrototypeOf(async function* () {}),
    getPrototypeOf([][Symbol.iterator]()),
    getPrototypeOf(''[Symbol.iterator]()),
    getPrototypeOf(new Map()[Symbol.iterator]()),
    getPrototypeOf(new Set()[Symbol.iterator]()),
    getPrototypeOf(/x/[Symbol.matchAll](''))!,
    getPrototypeOf(Uint8Array),
  ];
  for (const name of getOwnPropertyNames(global)) {
    if (name.startsWith('__tessera') || global[name] === global) continue;
    const descriptor = getOwnPropertyDescriptor(global, name)!;
    if (descriptor.configurable) defineProperty(global, name, { value: global[name], writable: false, enumerable: descriptor.enumerable, configurable: false });
    deepFreeze(global[name]);
  }
  for (const intrinsic of hidden) deepFreeze(intrinsic);
}
