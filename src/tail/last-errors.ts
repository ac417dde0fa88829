/** One failed execution of a component, as its page shows it. Plain data: it crosses between front threads. */
export interface LastError {
  /** ISO time the failure was answered. */
  time: string;
  /** The tenant that owned the component version when it ran: only it (and the administrator) sees the entry. */
  tenant: string;
  version: string;
  status: number;
  code: string;
  /** The sentence its caller read; a thrown error's message only, never its stack. */
  message: string;
}

/** Failures kept per component on each front thread. */
export const LAST_ERRORS_PER_COMPONENT = 20;
const MAX_MESSAGE_CHARS = 1000;
/** Components with a ring on one front thread: past it, the ring failed into longest ago is let go. */
const MAX_COMPONENTS = 10_000;

/**
 * The last failures of each component on one front thread: a bounded ring per component name and
 * tenant, filled only on an execution's failure path (a success costs nothing here). A name the
 * administrator moved keeps its former owner's versions live (decisions §15): one owner's failures
 * never push the other's out.
 */
export class LastErrors {
  /** By name, then by the tenant whose versions failed. */
  readonly #rings = new Map<string, Map<string, LastError[]>>();
  readonly #size: number;

  constructor(size = LAST_ERRORS_PER_COMPONENT) {
    this.#size = size;
  }

  note(name: string, failure: Omit<LastError, 'time'>): void {
    let owners = this.#rings.get(name);
    if (owners === undefined) {
      if (this.#rings.size >= MAX_COMPONENTS) this.#rings.delete(this.#rings.keys().next().value!);
      owners = new Map();
    } else this.#rings.delete(name);
    // Re-inserted: the map's order is the order components last failed in.
    this.#rings.set(name, owners);
    let ring = owners.get(failure.tenant);
    if (ring === undefined) owners.set(failure.tenant, (ring = []));
    const message = failure.message.length > MAX_MESSAGE_CHARS ? `${failure.message.slice(0, MAX_MESSAGE_CHARS)}…` : failure.message;
    ring.push({ time: new Date().toISOString(), ...failure, message });
    if (ring.length > this.#size) ring.shift();
  }

  /** This thread's failures of `name`, every tenant's, oldest first. */
  of(name: string): LastError[] {
    const owners = this.#rings.get(name);
    if (owners === undefined) return [];
    const all = [...owners.values()].flat();
    return owners.size === 1 ? all : all.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  }
}

/** The failures of several front threads as one list, newest first (every tenant's: a reader's are cut to LAST_ERRORS_PER_COMPONENT once chosen). */
export function newestFirst(lists: readonly LastError[][]): LastError[] {
  // Each list newest first: the sort keeps that order between failures of the same millisecond.
  return lists.flatMap((list) => [...list].reverse()).sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
}
