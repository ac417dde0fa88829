/** Either end of a front thread's channel: the `Worker` in the main thread, `parentPort` in the thread. */
export interface MessageEnd {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

type Handlers = Record<string, (payload: never) => unknown>;

interface Call {
  id: number;
  type: string;
  payload: unknown;
}

interface Answer {
  answers: number;
  value?: unknown;
  error?: string;
}

/**
 * Calls between the main thread and a front thread: `call` answers what the other end's handler of
 * that type returned (or rejects with its error's message); `tell` expects no answer.
 */
export class PortCalls {
  readonly #end: MessageEnd;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  #nextId = 1;

  constructor(end: MessageEnd, handlers: Handlers) {
    this.#end = end;
    end.on('message', (message) => {
      const answer = message as Answer;
      if (typeof answer.answers === 'number') {
        const pending = this.#pending.get(answer.answers);
        this.#pending.delete(answer.answers);
        if (answer.error !== undefined) pending?.reject(new Error(answer.error));
        else pending?.resolve(answer.value);
        return;
      }
      const { id, type, payload } = message as Call;
      const handler = handlers[type] as ((payload: unknown) => unknown) | undefined;
      void Promise.resolve()
        .then(() => {
          if (!handler) throw new Error(`No front-thread handler for "${type}".`);
          return handler(payload);
        })
        .then(
          (value) => {
            if (id === 0) return;
            try {
              end.postMessage({ answers: id, value });
            } catch (error) {
              // A value that cannot be copied between threads fails the call, not the process.
              end.postMessage({ answers: id, error: `The answer cannot be passed between threads: ${error instanceof Error ? error.message : String(error)}` });
            }
          },
          (error: unknown) => id !== 0 && end.postMessage({ answers: id, error: error instanceof Error ? error.message : String(error) }),
        );
    });
  }

  call<T>(type: string, payload?: unknown): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#end.postMessage({ id, type, payload });
    });
  }

  tell(type: string, payload?: unknown): void {
    this.#end.postMessage({ id: 0, type, payload });
  }

  /** The other end is gone: calls still waiting fail. */
  abandon(reason: string): void {
    for (const pending of this.#pending.values()) pending.reject(new Error(reason));
    this.#pending.clear();
  }
}
