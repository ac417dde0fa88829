/**
 * Sends messages over an IPC channel, those posted in one turn of the event loop as one array: a
 * busy front or host pays one serialization and one write per turn, not one per execution.
 *
 * With a frame size, a frame leaves early, before the turn ends, once it holds that many messages
 * of one group (the executions of one component, which enter its isolate together): the other side
 * starts on them while this one makes the rest of the turn's. Counted by group, so that a turn of
 * batches of several components still enters each isolate with many executions at once, not a few
 * per frame (bench/FINDINGS.md).
 */
export class Outbox<Message> {
  readonly #send: (batch: Message[]) => void;
  readonly #frameSize: number;
  #pending: Message[] = [];
  /** The current frame's messages per group. */
  readonly #groups = new Map<string, number>();
  #scheduled = false;

  constructor(send: (batch: Message[]) => void, frameSize = Infinity) {
    this.#send = send;
    this.#frameSize = frameSize;
  }

  post(message: Message, group?: string): void {
    this.#pending.push(message);
    if (group !== undefined && this.#frameSize !== Infinity) {
      const count = (this.#groups.get(group) ?? 0) + 1;
      if (count >= this.#frameSize) return this.#flush();
      this.#groups.set(group, count);
    }
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#atTurnEnd);
    }
  }

  readonly #atTurnEnd = (): void => {
    this.#scheduled = false;
    if (this.#pending.length > 0) this.#flush();
  };

  #flush(): void {
    const batch = this.#pending;
    this.#pending = [];
    this.#groups.clear();
    this.#send(batch);
  }
}
