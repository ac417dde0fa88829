/** The ring starts this small (a table per isolate must cost little) and doubles up to MAX_SLOTS. */
const FIRST_SLOTS = 16;
const MAX_SLOTS = 4096;

/**
 * Values by integer id, for tables that live long while their entries come and go all the time
 * (executions under way, bridge calls), their ids handed out in increasing order. It has the part
 * of Map's interface those tables use, and iterates in ascending id order over a snapshot: an entry
 * may be deleted while iterating.
 *
 * Not a Map: V8 links each hash table a Map outgrows or rehashes to the one replacing it, and the
 * replaced tables still hold the entries they had. In a Map that lives in the old generation while
 * thousands of entries a second pass through it, every young entry is then reachable from a dead
 * old table: each minor GC copies and promotes it, with whatever it references (an execution's
 * request, its promises). Measured on a front under 30k rendered GETs a second: 3.2 MB promoted per
 * scavenge with a Map. Nor an object used as a dictionary (0.6–0.8 MB): its dictionary is replaced
 * as it grows and shrinks, and hashing integer keys costs a few percent of a host's thread.
 *
 * Entries live in a ring of slots indexed by id, so nothing is rehashed and a removed entry leaves
 * no reference behind. An id whose slot is taken by a live entry doubles the ring; past MAX_SLOTS
 * (an entry that lasted while thousands of later ids were handed out: a long execution) it goes to
 * a small overflow Map.
 */
export class IdTable<Value> {
  #ids: number[] = [];
  #values: Array<Value | undefined> = [];
  readonly #overflow = new Map<number, Value>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(id: number): Value | undefined {
    const slot = id % this.#ids.length;
    if (this.#ids[slot] === id) return this.#values[slot];
    return this.#overflow.size === 0 ? undefined : this.#overflow.get(id);
  }

  has(id: number): boolean {
    return this.#ids[id % this.#ids.length] === id || (this.#overflow.size > 0 && this.#overflow.has(id));
  }

  set(id: number, value: Value): this {
    if (this.#overflow.size > 0 && this.#overflow.has(id)) {
      this.#overflow.set(id, value);
      return this;
    }
    for (;;) {
      const slots = this.#ids.length;
      const slot = id % slots;
      if (this.#ids[slot] === id) {
        this.#values[slot] = value;
        return this;
      }
      if (this.#ids[slot] === -1) {
        this.#ids[slot] = id;
        this.#values[slot] = value;
        this.#size++;
        return this;
      }
      if (slots >= MAX_SLOTS) {
        this.#overflow.set(id, value);
        this.#size++;
        return this;
      }
      this.#grow(slots === 0 ? FIRST_SLOTS : slots * 2);
    }
  }

  delete(id: number): boolean {
    const slot = id % this.#ids.length;
    if (this.#ids[slot] === id) {
      this.#ids[slot] = -1;
      this.#values[slot] = undefined;
    } else if (!this.#overflow.delete(id)) {
      return false;
    }
    this.#size--;
    return true;
  }

  clear(): void {
    this.#ids = [];
    this.#values = [];
    this.#overflow.clear();
    this.#size = 0;
  }

  keys(): IterableIterator<number> {
    return this.#snapshot()
      .map(([id]) => id)
      [Symbol.iterator]();
  }

  values(): IterableIterator<Value> {
    return this.#snapshot()
      .map(([, value]) => value)
      [Symbol.iterator]();
  }

  entries(): IterableIterator<[number, Value]> {
    return this.#snapshot()[Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[number, Value]> {
    return this.entries();
  }

  /** A ring of `slots` holding the entries of the ring now; those that collide there stay in the overflow. */
  #grow(slots: number): void {
    const ids = this.#ids;
    const values = this.#values;
    this.#ids = new Array<number>(slots).fill(-1);
    this.#values = new Array<Value | undefined>(slots).fill(undefined);
    for (let slot = 0; slot < ids.length; slot++) {
      const id = ids[slot]!;
      if (id === -1) continue;
      if (this.#ids[id % slots] === -1) {
        this.#ids[id % slots] = id;
        this.#values[id % slots] = values[slot];
      } else {
        this.#overflow.set(id, values[slot] as Value);
      }
    }
  }

  #snapshot(): Array<[number, Value]> {
    const entries: Array<[number, Value]> = [...this.#overflow];
    for (let slot = 0; slot < this.#ids.length; slot++) if (this.#ids[slot] !== -1) entries.push([this.#ids[slot]!, this.#values[slot] as Value]);
    return entries.sort(([a], [b]) => a - b);
  }
}
