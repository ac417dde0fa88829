import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { framedSocket } from '../../src/sandbox/framed-socket';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/**
 * A real connection over a unix socket: what arrives at the server end is read with framedSocket
 * (with `options`), and, with `reply`, each batch received is answered with it.
 */
export async function framedConnection(
  t: Teardown,
  { reply, ...options }: { reply?: unknown[]; stopReadingWhileBehind?: boolean } = {},
): Promise<{ client: net.Socket; batches: unknown[][]; closed: Promise<void> }> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'tessera-frames-'));
  const batches: unknown[][] = [];
  let closed!: Promise<void>;
  const accepted = new Promise<void>((resolve) => {
    const server = net.createServer((socket) => {
      closed = new Promise((done) => socket.once('close', () => done()));
      const send = framedSocket<unknown, unknown>(
        socket,
        (batch) => {
          batches.push(batch);
          if (reply) send(reply);
        },
        options,
      );
      resolve();
    });
    server.listen(path.join(folder, 's.sock'));
    t.teardown(() => {
      server.close();
      rmSync(folder, { recursive: true, force: true });
    });
  });
  const client = net.connect(path.join(folder, 's.sock'));
  t.teardown(() => client.destroy());
  await accepted;
  return { client, batches, closed };
}
