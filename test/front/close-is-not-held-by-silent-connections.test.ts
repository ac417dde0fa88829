import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { DEMO, startRegistry } from '../helpers/start-registry';
import path from 'node:path';

const connect = (url: string): Promise<net.Socket> =>
  new Promise((resolve, reject) => {
    const { port } = new URL(url);
    const socket = net.connect(Number(port), '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });

/** Close waits for a request under way at most its time limit and a margin: short, since the test waits it out. */
const LIMIT_MS = 250;

t.test('a client that connected and never finished a request does not hold the registry open when it closes', async (t) => {
  const { registry, url } = await startRegistry(t, [path.join(DEMO, 'hello-world')], (config) => {
    config.limits.executionTimeoutMs = LIMIT_MS;
  });
  const silent = await connect(url);
  const halfway = await connect(url);
  halfway.write('GET /hello-world HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  const ended = Promise.all([silent, halfway].map((socket) => new Promise((resolve) => socket.on('close', resolve))));
  const started = performance.now();
  await registry.close();
  const took = performance.now() - started;
  t.ok(took < LIMIT_MS + 2000 + 1000, `closed within the execution time limit and its margin (${Math.round(took)} ms)`);
  const cut = await Promise.race([ended.then(() => true), sleep(1000, false, { ref: false })]);
  t.ok(cut, 'the registry cut both connections');
});
