/** Where a stream's events are written: the HTTP response's socket. */
export interface EventSink {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
  end(): void;
  readonly destroyed: boolean;
}

/** Events lost at one place of the stream, told there once the reader takes events again. */
interface Lost {
  count: number;
}

/** How long a `dropped` notice is at most, counted against the buffer. */
const NOTICE_CHARS = 48;

/** One server-sent event: its type and its data as one JSON line. */
export const serverSentEvent = (type: string, data: unknown): string => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * A server-sent event stream whose buffer is bounded: events go to the socket while it takes them;
 * while it does not (a slow reader), they wait up to `maxChars` in all, and past that they are
 * dropped, counted, and told in the stream (`event: dropped`, `{"count": n}`) where they were lost,
 * so a slow reader never holds more memory than that, nor slows anything but its own stream.
 */
export class BoundedEventStream {
  readonly #sink: EventSink;
  readonly #maxChars: number;
  readonly #onDropped: (count: number) => void;
  readonly #queue: Array<string | Lost> = [];
  #queuedChars = 0;
  /** The socket took the last write: the next one goes straight to it. */
  #flowing = true;
  #ended = false;

  constructor(sink: EventSink, maxChars: number, onDropped: (count: number) => void) {
    this.#sink = sink;
    this.#maxChars = maxChars;
    this.#onDropped = onDropped;
  }

  get ended(): boolean {
    return this.#ended || this.#sink.destroyed;
  }

  /** Sends an event, or keeps it while the socket is behind, or drops it past the bound. */
  send(chunk: string): void {
    if (this.ended) return;
    if (this.#flowing && this.#queue.length === 0) {
      this.#write(chunk);
      return;
    }
    if (this.#queuedChars + chunk.length <= this.#maxChars) {
      this.#queue.push(chunk);
      this.#queuedChars += chunk.length;
      return;
    }
    const last = this.#queue.at(-1);
    if (typeof last === 'object') last.count++;
    else {
      this.#queue.push({ count: 1 });
      this.#queuedChars += NOTICE_CHARS;
    }
    this.#onDropped(1);
  }

  /** Sends what is cheap to lose (a keep-alive comment) only when nothing waits. */
  sendIfIdle(chunk: string): void {
    if (!this.ended && this.#flowing && this.#queue.length === 0) this.#write(chunk);
  }

  /** Ends the stream after what it holds, with a last event when given. */
  end(last?: string): void {
    if (this.#ended) return;
    if (last !== undefined && !this.#sink.destroyed) {
      // The last word goes even past the bound: it is one event, and the stream takes no more.
      this.#queue.push(last);
      this.#queuedChars += last.length;
    }
    this.#ended = true;
    if (this.#flowing) this.#flush();
    if (this.#queue.length === 0) this.#sink.end();
  }

  #write(chunk: string): void {
    this.#flowing = this.#sink.write(chunk);
    if (!this.#flowing) this.#sink.once('drain', () => this.#drained());
  }

  #drained(): void {
    this.#flowing = true;
    this.#flush();
    if (this.#ended && this.#queue.length === 0 && !this.#sink.destroyed) this.#sink.end();
  }

  #flush(): void {
    while (this.#flowing && this.#queue.length > 0 && !this.#sink.destroyed) {
      const item = this.#queue.shift()!;
      const chunk = typeof item === 'string' ? item : serverSentEvent('dropped', { count: item.count });
      this.#queuedChars -= typeof item === 'string' ? item.length : NOTICE_CHARS;
      this.#write(chunk);
    }
  }
}
