import type { MessagePort } from 'node:worker_threads';
import { Readable } from 'node:stream';
import { TesseraError } from '../errors/errors';
import { packageTooLarge, uploadStopped } from './upload-errors';

/**
 * How an upload travels from the front to the publish thread that reads it (read back from the
 * file it was received into: spool-upload.ts): its chunks as they are read, over a MessagePort, each
 * in memory of its own handed over without a copy on the other side. Neither side holds the whole
 * package in memory, and the thread starts unpacking with the first chunk.
 */
type PackageMessage = { chunk: Uint8Array } | { end: true } | { stop: true };

/**
 * The front's side: forwards `body` to `port` and resolves once it was all sent. Rejects with
 * PAYLOAD_TOO_LARGE past `limit` bytes, and with the reason the body failed (a client that went
 * away mid-upload); either way the thread is told to stop. The body is never destroyed here: the
 * front still answers on its connection.
 */
export function sendPackage(body: Readable, port: MessagePort, limit: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    const finish = (error?: Error) => {
      body.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      // Whatever the body still brings is read and dropped; a late error must not go unheard.
      body.on('error', () => {});
      if (error) {
        post(port, { stop: true });
        port.close();
        reject(error);
      } else {
        post(port, { end: true });
        resolve();
      }
    };
    const onData = (chunk: Buffer) => {
      sent += chunk.length;
      if (sent > limit) return finish(packageTooLarge(limit));
      // A chunk may be a view of a larger buffer Node reuses: its bytes are copied once into their own.
      const own = new Uint8Array(chunk);
      port.postMessage({ chunk: own } satisfies PackageMessage, [own.buffer]);
    };
    const onEnd = () => finish();
    // A coded error is the body's own refusal (a multipart upload's limits); any other, a connection lost.
    const onError = (error: Error) => finish(error instanceof TesseraError ? error : uploadStopped());
    const onClose = () => finish(uploadStopped());
    body.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/**
 * The publish thread's side: the upload as a stream of its chunks. It fails with a coded reason
 * when the front says stop (too large, the client went away) or the channel closes before the end;
 * the port is closed once the stream ends, either way.
 */
export function receivePackage(port: MessagePort): Readable {
  let ended = false;
  const stream = new Readable({
    read() {},
    destroy(error, callback) {
      port.close();
      callback(error);
    },
  });
  port.on('message', (message: PackageMessage) => {
    if ('chunk' in message) {
      stream.push(Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength));
    } else if ('end' in message) {
      ended = true;
      stream.push(null);
      port.close();
    } else {
      stream.destroy(uploadStopped());
    }
  });
  port.on('close', () => {
    if (!ended) stream.destroy(uploadStopped());
  });
  return stream;
}

const post = (port: MessagePort, message: PackageMessage): void => port.postMessage(message);
