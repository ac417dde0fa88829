import net from 'node:net';
import t from 'tap';
import { DEMO, startRegistry } from '../helpers/start-registry';
import path from 'node:path';

const connect = (url: string): Promise<net.Socket> =>
  new Promise((resolve, reject) => {
    const { port } = new URL(url);
    const socket = net.connect(Number(port), '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });

t.test('a client that connected and never finished a request does not hold the registry open when it closes', async (t) => {
  const { registry, url } = await startRegistry(t, [path.join(DEMO, 'hello-world')], (config) => {
    config.limits.executionTimeoutMs = 1000;
  });
  const silent = await connect(url);
  const halfway = await connect(url);
  halfway.write('GET /hello-world HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  const ended = Promise.all([silent, halfway].map((socket) => new Promise((resolve) => socket.on('close', resolve))));
  const started = performance.now();
  await registry.close();
  const took = performance.now() - started;
  t.ok(took < 1000 + 2000 + 1000, `closed within the execution time limit and its margin (${Math.round(took)} ms)`);
  const cut = await Promise.race([ended.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 1000))]);
  t.ok(cut, 'the registry cut both connections');
});
