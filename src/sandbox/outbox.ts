/**
 * Sends messages over an IPC channel, all those posted in one turn of the event loop as one array:
 * a busy front or host pays one serialization and one write per turn, not one per execution.
 */
export class Outbox<Message> {
  readonly #send: (batch: Message[]) => void;
  #pending: Message[] = [];

  constructor(send: (batch: Message[]) => void) {
    this.#send = send;
  }

  post(message: Message): void {
    if (this.#pending.push(message) === 1) setImmediate(this.#flush);
  }

  readonly #flush = (): void => {
    const batch = this.#pending;
    this.#pending = [];
    this.#send(batch);
  };
}
