import { serverSentEvent } from './bounded-event-stream';
import type { Peer } from './peer-directory';
import { PeerStream, type PeerEnd } from './peer-stream';

/** What a tail's reader is told of its peers: one joined, one left (its code says why), one refused its part. */
export type ReplicaState = 'joined' | 'left' | 'refused';

export interface FanInOptions {
  /** The tail's filters as a query string, `local=true` included. */
  query: string;
  /** The reader's own Authorization header, sent on to each peer. */
  authorization: string;
  /** Sends server-sent event text into the tail's own bounded stream. */
  send(chunk: string): void;
}

/**
 * The peers' parts of one tail: a stream to each live peer, opened when the peer is found and
 * closed when it is no longer (its record removed or stale, or replaced by a replica started again on
 * its address). A peer whose part ends by itself (it drains, refuses, breaks) is tried again at
 * the next look at the records while it is still announced; the tail itself stays open. The reader
 * is told `event: replica` when a peer joins or leaves, and when it refuses (once until that changes).
 */
export class PeerFanIn {
  readonly #options: FanInOptions;
  readonly #streams = new Map<string, PeerStream>();
  /** The last refusal told for each address, so a peer that keeps refusing is told once. */
  readonly #refusals = new Map<string, string>();
  #closed = false;

  constructor(options: FanInOptions) {
    this.#options = options;
  }

  /** The live peers as last found: streams opened to new ones, closed to those gone. */
  reconcile(peers: readonly Peer[]): void {
    if (this.#closed) return;
    const live = new Map(peers.map((peer) => [peer.address, peer]));
    for (const [address, stream] of this.#streams) {
      if (live.get(address)?.id === stream.peer.id) continue;
      stream.close();
      this.#streams.delete(address);
      if (stream.joined) this.#tell(stream.peer, 'left', 'GONE');
    }
    for (const peer of peers) if (!this.#streams.has(peer.address)) this.#open(peer);
  }

  /** The tail ended: every peer's part with it, silently. */
  close(): void {
    this.#closed = true;
    for (const stream of this.#streams.values()) stream.close();
    this.#streams.clear();
  }

  #open(peer: Peer): void {
    const stream: PeerStream = new PeerStream(peer, this.#options.query, this.#options.authorization, {
      joined: () => {
        this.#refusals.delete(peer.address);
        this.#tell(peer, 'joined');
      },
      event: (chunk) => this.#options.send(chunk),
      ended: (end) => this.#ended(stream, end),
    });
    this.#streams.set(peer.address, stream);
  }

  #ended(stream: PeerStream, { joined, code }: PeerEnd): void {
    if (this.#streams.get(stream.peer.address) === stream) this.#streams.delete(stream.peer.address);
    if (this.#closed) return;
    if (joined) this.#tell(stream.peer, 'left', code);
    else if (this.#refusals.get(stream.peer.address) !== code) {
      this.#refusals.set(stream.peer.address, code);
      this.#tell(stream.peer, 'refused', code);
    }
  }

  #tell(peer: Peer, state: ReplicaState, code?: string): void {
    this.#options.send(serverSentEvent('replica', code === undefined ? { replica: peer.id, state } : { replica: peer.id, state, code }));
  }
}
