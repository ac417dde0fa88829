import type { Socket } from 'node:net';

/** The largest frame either side accepts: a batch of messages whose strings are each size-bounded already. */
const MAX_FRAME_BYTES = 256 * 1024 * 1024;

/**
 * A batch as a frame: a 4-byte length, then the batch as JSON in UTF-8. The messages hold strings,
 * numbers and plain objects only (src/sandbox/protocol.ts), which JSON carries exactly (a lone
 * surrogate included: it is written escaped). Not `v8.serialize`: half as fast for these batches
 * (10.5 against 5.3 µs for five executions out and five answers back, measured alone), and each
 * call leaves a serializer object that outlives a scavenge: a front under 30k rendered GETs a
 * second promoted 0.5–0.8 MB per scavenge for them alone.
 */
export function frameOf(batch: unknown[]): [head: Buffer, body: Buffer] {
  const body = Buffer.from(JSON.stringify(batch), 'utf8');
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32BE(body.length, 0);
  return [head, body];
}

/**
 * Message batches over a stream socket between a front thread and a sandbox host, framed by
 * `frameOf`. A peer sending a frame over the bound is cut off. Chunks are kept apart until a frame
 * is whole and joined once: a 10 MB result arrives in hundreds of chunks, which joining at each one
 * would copy again and again.
 */
export function framedSocket<In, Out>(socket: Socket, onBatch: (batch: In[]) => void): (batch: Out[]) => void {
  let chunks: Buffer[] = [];
  let received = 0;
  /** The length of the frame being received, once its 4-byte head is in. */
  let frameBytes = -1;
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    received += chunk.length;
    for (;;) {
      if (frameBytes === -1) {
        if (received < 4) return;
        if (chunks[0]!.length < 4) chunks = [Buffer.concat(chunks, received)];
        frameBytes = chunks[0]!.readUInt32BE(0);
        if (frameBytes > MAX_FRAME_BYTES) {
          socket.destroy();
          return;
        }
      }
      if (received < 4 + frameBytes) return;
      const joined = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
      const frame = joined.subarray(4, 4 + frameBytes);
      const rest = joined.subarray(4 + frameBytes);
      chunks = rest.length > 0 ? [rest] : [];
      received = rest.length;
      frameBytes = -1;
      onBatch(JSON.parse(frame.toString('utf8')) as In[]);
    }
  });
  return (batch) => {
    if (socket.destroyed) return;
    const [head, body] = frameOf(batch);
    socket.cork();
    socket.write(head);
    socket.write(body);
    socket.uncork();
  };
}
