type Listener = (event: { type: string }, data?: unknown) => void;

export interface EventBus {
  on(type: string, listener: Listener): void;
  off(types: string | string[], listener?: Listener): void;
  fire(type: string, data?: unknown): void;
  reset(): void;
}

/**
 * `oc.events`: OC's own event bus, kept as OC has it (listeners get `({type}, data)`), since pages
 * listen to `oc:rendered`, `oc:failed`, `oc:error`, `oc:ready` and `oc:unrendered` there.
 * `debug()` is read at each event so `oc.conf.debug` can be switched on at any time.
 */
export function createEventBus(debug: () => boolean): EventBus {
  let listeners = new Map<string, Listener[]>();
  return {
    on(type, listener) {
      if (typeof listener !== 'function') throw new Error('Callback is required');
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    },
    off(types, listener) {
      for (const type of typeof types === 'string' ? [types] : types) {
        if (!listener) listeners.delete(type);
        else listeners.set(type, (listeners.get(type) ?? []).filter((registered) => registered !== listener));
      }
    },
    fire(type, data) {
      if (debug()) console.log(`OC event fired: "${type}"`);
      // A copy: a listener that removes itself must not make the next one skipped.
      for (const listener of [...(listeners.get(type) ?? [])]) listener({ type }, data);
    },
    reset() {
      listeners = new Map();
    },
  };
}
