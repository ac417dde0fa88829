import type { StorageAdapter } from '../../src/storage/storage-adapter';

export interface CountingStorage {
  /** The adapter to hand to a catalog or registry: every call goes to the real one, counted. */
  storage: StorageAdapter;
  /** Calls per method since the last reset, e.g. `{ listRecords: 2 }`. */
  calls: Record<string, number>;
  total(): number;
  reset(): void;
}

/** Counts the calls made to a real storage adapter, by method, without changing what they do. */
export function countingStorage(real: StorageAdapter): CountingStorage {
  const calls: Record<string, number> = {};
  const storage = new Proxy(real, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      // Called on the real adapter: its private fields are not the proxy's.
      return (...args: unknown[]) => {
        calls[property] = (calls[property] ?? 0) + 1;
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    storage,
    calls,
    total: () => Object.values(calls).reduce((sum, count) => sum + count, 0),
    reset: () => {
      for (const method of Object.keys(calls)) delete calls[method];
    },
  };
}
