/** One tenant's waiting items, in arrival order, and what it may still take in its current turn. */
interface TenantLine<T> {
  readonly tenant: string;
  readonly weight: number;
  readonly items: T[];
  /** Items it may take before its turn passes; a turn adds its weight. */
  credit: number;
}

/**
 * Publishes waiting for a publish thread, served **round-robin by tenant**, weighted: tenants with
 * something waiting take turns in the order they started waiting, and in its turn a tenant takes
 * as many items as its weight (a weight of 2 takes two, a weight of 0.5 one every other turn: a
 * deficit round-robin, counting items). Within a tenant, items keep their arrival order. So however
 * many uploads one tenant queues, another tenant's publish waits behind at most one turn of each
 * tenant ahead of it, whatever arrived first. A tenant with nothing waiting leaves the rotation and
 * its credit: the map holds only tenants at work.
 */
export class PublishQueue<T> {
  readonly #weightOf: (tenant: string) => number;
  readonly #lines = new Map<string, TenantLine<T>>();
  /** Tenants with items waiting, the one whose turn it is first. */
  readonly #turns: Array<TenantLine<T>> = [];
  #size = 0;

  /** `weightOf` as the sandbox's fair share reads it (src/tenants/tenant-weight.ts); a weight that is not positive counts as 1. */
  constructor(weightOf: (tenant: string) => number) {
    this.#weightOf = weightOf;
  }

  push(tenant: string, item: T): void {
    let line = this.#lines.get(tenant);
    if (line === undefined) {
      const weight = this.#weightOf(tenant);
      line = { tenant, weight: weight > 0 ? weight : 1, items: [], credit: 0 };
      this.#lines.set(tenant, line);
      this.#turns.push(line);
    }
    line.items.push(item);
    this.#size += 1;
  }

  /** The next item by the rotation, taken out of the queue; undefined when nothing waits. */
  shift(): T | undefined {
    while (this.#turns.length > 0) {
      const line = this.#turns[0]!;
      if (line.credit < 1) {
        // A new turn: a tenant lighter than 1 gathers credit over several.
        line.credit += line.weight;
        if (line.credit < 1) this.#passTurn();
        continue;
      }
      line.credit -= 1;
      const item = line.items.shift()!;
      this.#size -= 1;
      if (line.items.length === 0) {
        this.#turns.shift();
        this.#lines.delete(line.tenant);
      } else if (line.credit < 1) {
        this.#passTurn();
      }
      return item;
    }
    return undefined;
  }

  /** Takes `item` out of its tenant's line (its client left); false when it is not waiting (its turn came). */
  remove(tenant: string, item: T): boolean {
    const line = this.#lines.get(tenant);
    const at = line?.items.indexOf(item) ?? -1;
    if (line === undefined || at === -1) return false;
    line.items.splice(at, 1);
    this.#size -= 1;
    if (line.items.length === 0) {
      this.#turns.splice(this.#turns.indexOf(line), 1);
      this.#lines.delete(tenant);
    }
    return true;
  }

  /** Items waiting, all tenants together. */
  get size(): number {
    return this.#size;
  }

  #passTurn(): void {
    this.#turns.push(this.#turns.shift()!);
  }
}
