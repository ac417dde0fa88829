/**
 * Whether this replica should get traffic (`GET /readyz`): not before its sandbox hosts answer,
 * and not once it drains. `/livez` only says the process answers.
 */
export class Readiness {
  #draining = false;
  #started = false;
  readonly #onDrain: Array<() => void> = [];
  readonly #sandboxUp: () => Promise<boolean>;

  /** `sandboxUp` answers whether at least one sandbox host answers. */
  constructor(sandboxUp: () => Promise<boolean>) {
    this.#sandboxUp = sandboxUp;
  }

  get draining(): boolean {
    return this.#draining;
  }

  /** From now on `/readyz` answers 503 and every response closes its connection. */
  drain(): void {
    if (this.#draining) return;
    this.#draining = true;
    for (const listener of this.#onDrain) listener();
  }

  /** Called once the replica starts draining (streams that would hold it end then). */
  onDrain(listener: () => void): void {
    this.#onDrain.push(listener);
  }

  /**
   * 'ready', or why not. Once the sandbox has answered, the replica stays ready until it drains: a
   * host busy with work may answer the probe late, and the pool replaces hosts that die.
   */
  async state(): Promise<'ready' | 'starting' | 'draining'> {
    if (this.#draining) return 'draining';
    this.#started ||= await this.#sandboxUp();
    return this.#started ? 'ready' : 'starting';
  }
}
