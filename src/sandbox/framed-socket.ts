import type { Socket } from 'node:net';
import { deserialize, serialize } from 'node:v8';

/** The largest frame either side accepts: a batch of messages whose strings are each size-bounded already. */
const MAX_FRAME_BYTES = 256 * 1024 * 1024;

/** A frame's head: the body's length (4 bytes), then how the body is written. */
const HEAD_BYTES = 5;
const AS_JSON = 0;
const AS_V8 = 1;
const AS_SPLIT = 2;
/**
 * Bytes written and not yet taken by the peer past which a side that stops reading while behind
 * does: well above a busy moment's answers (a few hundred KB between two reads of a loaded front),
 * so that only a front that stopped reading is met with it.
 */
const BEHIND_BYTES = 1024 * 1024;
/** Characters of strings in a batch past which it goes as V8's serialization. */
const LARGE_BATCH_CHARS = 64 * 1024;

/**
 * How deep a small batch's objects may nest: the batch, a message, its lease, the plans, a plan, its
 * parameters, a definition, its enum (protocol.ts, NestedLease).
 */
const SMALL_DEPTH = 8;

/**
 * Whether a batch is small: its strings add up to less than LARGE_BATCH_CHARS, and its values nest
 * no deeper than SMALL_DEPTH (messages hold plain data only: src/sandbox/protocol.ts).
 */
function isSmall(batch: unknown[]): boolean {
  counted = 0;
  for (let index = 0; index < batch.length; index++) if (!fits(batch[index], 1)) return false;
  return true;
}

/** Characters of strings counted so far by the batch `isSmall` walks (one walk at a time: a thread runs one). */
let counted = 0;

/** Whether a value's strings still leave the batch small; the rare object (a lease, a nested report, code) is walked. */
function fits(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return (counted += value.length) < LARGE_BATCH_CHARS;
  if (typeof value !== 'object' || value === null) return true;
  if (depth === SMALL_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (!fits(value[index], depth + 1)) return false;
    return true;
  }
  for (const key in value) if (!fits((value as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}

/**
 * The message fields that hold a long string: an execution's input, an answer, a bridge call's
 * payload (src/sandbox/protocol.ts). Under these names a message holds a string or nothing.
 */
const BULK_FIELDS = ['input', 'answer', 'payload'] as const;

/**
 * A batch as a frame. The messages hold strings, numbers and plain objects only
 * (src/sandbox/protocol.ts). A small batch (every execution and answer of a usual component) is
 * written as JSON in UTF-8: `v8.serialize` takes twice as long for them (10.5 against 5.3 µs for
 * five executions out and five answers back, measured alone), and each call leaves a serializer
 * object that outlives a scavenge (a front under 30k rendered GETs a second promoted 0.5–0.8 MB per
 * scavenge for them). Its messages' bulk strings, JSON themselves, go after the JSON as they are,
 * each replaced there by its length: escaped inside it, each quote of theirs was written and read
 * again (an execution out and its answer back, with wrk's headers: 0.65 against 1.04 µs on the front,
 * 0.56 against 0.92 on its host; `bench/frame-strings.ts`). A batch with a bulk string
 * UTF-8 cannot carry (a lone surrogate) goes as plain JSON, which writes it escaped. A large batch
 * goes as V8's serialization, which copies strings as they are where JSON escapes them: 5–8 ms
 * against 50 ms for a 10 MB answer full of quotes, time a host's thread owes its other tenants.
 */
export function frameOf(batch: unknown[]): Buffer[] {
  if (isSmall(batch)) return [splitFrame(batch) ?? jsonFrame(batch)];
  // A large body is not copied again behind its head.
  const body = serialize(batch);
  const head = Buffer.allocUnsafe(HEAD_BYTES);
  head.writeUInt32BE(body.length, 0);
  head[4] = AS_V8;
  return [head, body];
}

/**
 * The frame's body: the JSON's length (4 bytes), the JSON of the messages with each bulk string's
 * length in its place, then the bulk strings in the order of their messages and fields. Undefined
 * when one is not well-formed UTF-16. One buffer, head and body, for one plain write (a writev of
 * several cost the front more).
 */
function splitFrame(batch: unknown[]): Buffer | undefined {
  const bulk: string[] = [];
  const written: unknown[] = new Array(batch.length);
  for (let index = 0; index < batch.length; index++) {
    const message = batch[index] as Record<string, unknown>;
    let copy = message;
    for (const field of BULK_FIELDS) {
      const value = message[field];
      if (typeof value !== 'string') continue;
      if (!value.isWellFormed()) return undefined;
      if (copy === message) copy = { ...message };
      copy[field] = value.length;
      bulk.push(value);
    }
    written[index] = copy;
  }
  const json = JSON.stringify(written);
  const strings = bulk.join('');
  const jsonBytes = Buffer.byteLength(json, 'utf8');
  const frame = Buffer.allocUnsafe(HEAD_BYTES + 4 + jsonBytes + Buffer.byteLength(strings, 'utf8'));
  frame.writeUInt32BE(frame.length - HEAD_BYTES, 0);
  frame[4] = AS_SPLIT;
  frame.writeUInt32BE(jsonBytes, HEAD_BYTES);
  frame.write(json, HEAD_BYTES + 4, 'utf8');
  frame.write(strings, HEAD_BYTES + 4 + jsonBytes, 'utf8');
  return frame;
}

/** The body as one JSON, written straight into the frame behind its head. */
function jsonFrame(batch: unknown[]): Buffer {
  const json = JSON.stringify(batch);
  const frame = Buffer.allocUnsafe(HEAD_BYTES + Buffer.byteLength(json, 'utf8'));
  frame.writeUInt32BE(frame.length - HEAD_BYTES, 0);
  frame[4] = AS_JSON;
  frame.write(json, HEAD_BYTES, 'utf8');
  return frame;
}

/** The batch a whole frame (head and body) holds, or undefined when it holds none that can be read. */
export function batchOfFrame(frame: Buffer): unknown[] | undefined {
  return batchOf(frame[4], frame.subarray(HEAD_BYTES, HEAD_BYTES + frame.readUInt32BE(0)));
}

/** The batch a frame's body holds, or undefined when it holds none that can be read. */
function batchOf(writtenAs: number | undefined, body: Buffer): unknown[] | undefined {
  try {
    const batch: unknown =
      writtenAs === AS_SPLIT ? splitBatchOf(body) : writtenAs === AS_JSON ? JSON.parse(body.toString('utf8')) : writtenAs === AS_V8 ? deserialize(body) : undefined;
    return Array.isArray(batch) ? batch : undefined;
  } catch {
    return undefined;
  }
}

/** A split body's batch, its bulk strings back in their places; undefined unless their lengths take the strings exactly. */
function splitBatchOf(body: Buffer): unknown[] | undefined {
  const jsonBytes = body.readUInt32BE(0);
  if (jsonBytes > body.length - 4) return undefined;
  const batch: unknown = JSON.parse(body.toString('utf8', 4, 4 + jsonBytes));
  if (!Array.isArray(batch)) return undefined;
  const strings = body.toString('utf8', 4 + jsonBytes);
  let at = 0;
  for (const message of batch as unknown[]) {
    if (typeof message !== 'object' || message === null) continue;
    for (const field of BULK_FIELDS) {
      const chars: unknown = (message as Record<string, unknown>)[field];
      if (typeof chars !== 'number') continue;
      if (!Number.isInteger(chars) || chars < 0 || chars > strings.length - at) return undefined;
      (message as Record<string, unknown>)[field] = strings.slice(at, at + chars);
      at += chars;
    }
  }
  return at === strings.length ? batch : undefined;
}

/**
 * Message batches over a stream socket between a front thread and a sandbox host, framed by
 * `frameOf`. A peer sending a frame over the bound, or one that holds no batch that can be read, is
 * cut off (an exception there would end the process). Chunks are kept apart until a frame is whole
 * and joined once: a 10 MB result arrives in hundreds of chunks, which joining at each one would
 * copy again and again.
 *
 * With `stopReadingWhileBehind` (the host's side), the socket is not read while what was written to
 * it waits for the peer: a front that does not read its answers sends no more work until it does,
 * instead of the host buffering answers without bound. Only one side may do so, or two sides each
 * waiting for the other to read would both stop; the front always reads.
 */
export function framedSocket<In, Out>(socket: Socket, onBatch: (batch: In[]) => void, options: { stopReadingWhileBehind?: boolean } = {}): (batch: Out[]) => void {
  let chunks: Buffer[] = [];
  let received = 0;
  /** The length of the frame being received, once its head is in. */
  let frameBytes = -1;
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    received += chunk.length;
    for (;;) {
      if (frameBytes === -1) {
        if (received < HEAD_BYTES) return;
        if (chunks[0]!.length < HEAD_BYTES) chunks = [Buffer.concat(chunks, received)];
        frameBytes = chunks[0]!.readUInt32BE(0);
        if (frameBytes > MAX_FRAME_BYTES) {
          socket.destroy();
          return;
        }
      }
      if (received < HEAD_BYTES + frameBytes) return;
      const joined = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
      const batch = batchOf(joined[4], joined.subarray(HEAD_BYTES, HEAD_BYTES + frameBytes));
      const rest = joined.subarray(HEAD_BYTES + frameBytes);
      chunks = rest.length > 0 ? [rest] : [];
      received = rest.length;
      frameBytes = -1;
      if (batch === undefined) {
        socket.destroy();
        return;
      }
      onBatch(batch as In[]);
    }
  });
  return (batch) => {
    if (socket.destroyed) return;
    const frame = frameOf(batch);
    if (frame.length === 1) socket.write(frame[0]!);
    else {
      socket.cork();
      for (const chunk of frame) socket.write(chunk);
      socket.uncork();
    }
    if (options.stopReadingWhileBehind && socket.writableLength > BEHIND_BYTES && !socket.isPaused()) {
      socket.pause();
      socket.once('drain', () => socket.resume());
    }
  };
}
