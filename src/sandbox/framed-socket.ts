import type { Socket } from 'node:net';
import { deserialize, serialize } from 'node:v8';

/** The largest frame either side accepts: a batch of messages whose strings are each size-bounded already. */
const MAX_FRAME_BYTES = 256 * 1024 * 1024;

/**
 * Message batches over a stream socket between a front thread and a sandbox host, framed as Node's
 * IPC channel frames them (a 4-byte length, then the V8-serialized value). A peer sending a frame
 * over the bound is cut off.
 */
export function framedSocket<In, Out>(socket: Socket, onBatch: (batch: In[]) => void): (batch: Out[]) => void {
  let buffered: Buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    while (buffered.length >= 4) {
      const size = buffered.readUInt32BE(0);
      if (size > MAX_FRAME_BYTES) {
        socket.destroy();
        return;
      }
      if (buffered.length < 4 + size) break;
      const frame = buffered.subarray(4, 4 + size);
      buffered = buffered.subarray(4 + size);
      onBatch(deserialize(frame) as In[]);
    }
  });
  return (batch) => {
    if (socket.destroyed) return;
    const body = serialize(batch);
    const head = Buffer.allocUnsafe(4);
    head.writeUInt32BE(body.length, 0);
    socket.cork();
    socket.write(head);
    socket.write(body);
    socket.uncork();
  };
}
