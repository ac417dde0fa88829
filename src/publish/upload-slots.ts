/**
 * Uploads being received at once, by tenant: each holds up to the publish limit on disk while it
 * arrives (spool-upload.ts). Past `perTenant`, a tenant's next upload waits for one of its own to
 * end before its body is read at all: its client is held back by its own connection, and no other
 * tenant's upload waits behind it.
 */
export class UploadSlots {
  readonly #perTenant: number;
  readonly #taken = new Map<string, number>();
  readonly #waiting = new Map<string, Array<() => void>>();

  constructor(perTenant: number) {
    this.#perTenant = perTenant;
  }

  /** Resolves once the tenant has a slot; `release` gives it back. */
  async take(tenant: string): Promise<void> {
    const taken = this.#taken.get(tenant) ?? 0;
    if (taken < this.#perTenant) {
      this.#taken.set(tenant, taken + 1);
      return;
    }
    // The slot is handed over as it is released: the count stays.
    await new Promise<void>((resolve) => {
      const queue = this.#waiting.get(tenant) ?? [];
      queue.push(resolve);
      this.#waiting.set(tenant, queue);
    });
  }

  release(tenant: string): void {
    const queue = this.#waiting.get(tenant);
    const next = queue?.shift();
    if (queue?.length === 0) this.#waiting.delete(tenant);
    if (next) {
      next();
      return;
    }
    const left = (this.#taken.get(tenant) ?? 1) - 1;
    if (left === 0) this.#taken.delete(tenant);
    else this.#taken.set(tenant, left);
  }
}
