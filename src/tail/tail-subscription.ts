import { BoundedEventStream, serverSentEvent, type EventSink } from './bounded-event-stream';
import type { ExecutionRecord } from './execution-record';
import { passes, type TailFilter } from './tail-filter';
import type { TailSubscriber } from './tail-hub';
import type { TailView } from './tail-views';

/** A comment line every so often: proxies and load balancers keep an idle stream open. */
const KEEP_ALIVE_MS = 15_000;

export interface SubscriptionOptions {
  watcher: string;
  filter: TailFilter;
  sink: EventSink;
  /** Characters of events a stream holds for a slow reader before it drops them. */
  maxBufferChars: number;
  stillAllowed: () => boolean;
  /** Told of events dropped for this reader. */
  dropped: (count: number) => void;
  /** Called once, when the stream ends, whoever ended it. */
  ended: () => void;
}

/** One open tail: what it asks to see, sent as server-sent events through a bounded buffer. */
export class TailSubscription implements TailSubscriber {
  readonly watcher: string;
  readonly #filter: TailFilter;
  readonly #stream: BoundedEventStream;
  readonly #stillAllowed: () => boolean;
  readonly #ended: () => void;
  readonly #keepAlive: NodeJS.Timeout;
  #closed = false;

  constructor(options: SubscriptionOptions) {
    this.watcher = options.watcher;
    this.#filter = options.filter;
    this.#stillAllowed = options.stillAllowed;
    this.#ended = options.ended;
    this.#stream = new BoundedEventStream(options.sink, options.maxBufferChars, options.dropped);
    this.#keepAlive = setInterval(() => this.#stream.sendIfIdle(': keep-alive\n\n'), KEEP_ALIVE_MS).unref();
  }

  /** The first event: what the tail watches. */
  opened(data: Record<string, unknown>): void {
    this.#stream.send(`retry: 2000\n${serverSentEvent('open', data)}`);
  }

  offer(view: TailView, record: ExecutionRecord): void {
    if (!passes(this.#filter, view.subject, record.status, record.code)) return;
    if (this.#filter.sample < 1 && Math.random() >= this.#filter.sample) return;
    this.#stream.send(serverSentEvent('execution', view.event));
  }

  /** An event of another replica's part of this tail (its executions, or a word about the replica), as server-sent event text. */
  relay(chunk: string): void {
    this.#stream.send(chunk);
  }

  stillAllowed(): boolean {
    return this.#stillAllowed();
  }

  /** Ends the stream with a last event saying why (its reader connects again, unless the token was revoked). */
  end(code: 'UNAUTHORIZED' | 'NOT_READY', sentence: string): void {
    this.#stream.end(serverSentEvent('end', { code, error: sentence }));
    this.closed();
  }

  /** The stream ended (its reader went away, or `end`): it takes no more events. */
  closed(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepAlive);
    this.#ended();
  }
}
