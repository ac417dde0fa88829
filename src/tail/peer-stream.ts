import type { Peer } from './peer-directory';
import { serverSentEventBlocks } from './server-sent-event-blocks';

/** How a peer's part of a tail ended: never joined (refused or unreachable), or after it joined. */
export interface PeerEnd {
  joined: boolean;
  /** The peer's error code (`TOO_MANY_TAILS`, `NOT_READY`, `UNAUTHORIZED`), or UNREACHABLE when it could not be reached or the connection broke. */
  code: string;
}

export interface PeerStreamEvents {
  /** The peer opened its part of the tail. */
  joined(): void;
  /** An event of the peer's (`execution`, `dropped`), as server-sent event text to send on. */
  event(chunk: string): void;
  /** Its part ended by itself (not by `close`): told once. */
  ended(end: PeerEnd): void;
}

/** Events a peer's stream carries on to the tail's reader; `open` and `end` are the peer stream's own business. */
const CARRIED = new Set(['execution', 'dropped']);

/**
 * One peer's part of a tail: `GET <peer>/~tail?<the tail's filters>&local=true` with the reader's
 * own Authorization header, which the peer checks itself (no secret shared between replicas), and
 * which asks for that replica's executions only (a peer never gathers from its own peers). Its
 * events are read as fast as they come: holding them back is the tail's bounded stream's business.
 */
export class PeerStream {
  readonly peer: Peer;
  readonly #abort = new AbortController();
  #joined = false;
  #closed = false;

  constructor(peer: Peer, query: string, authorization: string, events: PeerStreamEvents) {
    this.peer = peer;
    void this.#run(`${peer.address}~tail?${query}`, authorization, events);
  }

  get joined(): boolean {
    return this.#joined;
  }

  /** Ends this part: the tail ended, or the peer left the replicas' records. */
  close(): void {
    this.#closed = true;
    this.#abort.abort();
  }

  async #run(url: string, authorization: string, events: PeerStreamEvents): Promise<void> {
    let code = 'UNREACHABLE';
    try {
      const response = await fetch(url, { headers: { authorization, accept: 'text/event-stream' }, signal: this.#abort.signal });
      if (response.status !== 200 || response.body === null) {
        const body = (await response.json().catch(() => undefined)) as { code?: unknown } | undefined;
        code = typeof body?.code === 'string' ? body.code : `HTTP_${response.status}`;
      } else {
        for await (const { type, data } of serverSentEventBlocks(response.body)) {
          if (type === 'open') {
            this.#joined = true;
            events.joined();
          } else if (CARRIED.has(type) && !data.includes('\n')) events.event(`event: ${type}\ndata: ${data}\n\n`);
          else if (type === 'end') {
            code = codeOf(data) ?? code;
            break;
          }
        }
        this.#abort.abort();
      }
    } catch {
      // unreachable, or the connection broke: told as UNREACHABLE below unless closed on purpose
    }
    if (!this.#closed) events.ended({ joined: this.#joined, code });
  }
}

function codeOf(data: string): string | undefined {
  try {
    const code = (JSON.parse(data) as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}
