import { createServer } from 'node:net';
import { once } from 'node:events';
import t from 'tap';
import { fixture } from '../helpers/start-registry';
import { runCli, workFolder } from './run-cli';

t.test('start and dev on a taken port say which port and what to do, and exit', async (t) => {
  const holder = createServer();
  holder.listen(0, '0.0.0.0');
  await once(holder, 'listening');
  t.teardown(() => holder.close());
  const port = (holder.address() as { port: number }).port;
  const storage = await workFolder(t);

  const explained = `Error: Port ${port} is in use; choose another with --port, e.g. --port ${port + 1}.\n`;
  const [start, dev] = await Promise.all([
    runCli(['start', '--port', String(port), '--storage', storage]),
    runCli(['dev', fixture('publish-greeting'), '--port', String(port)]),
  ]);
  t.equal(start.code, 1, 'start exits');
  t.equal(start.stderr, explained, 'start explains');
  t.equal(dev.code, 1, 'dev exits');
  t.equal(dev.stderr, explained, 'dev explains');
});

t.test('start explains a port held by a socket that shares it (SO_REUSEPORT), as front threads listen', async (t) => {
  const holder = createServer();
  holder.listen({ port: 0, host: '127.0.0.1', reusePort: true } as Parameters<typeof holder.listen>[0]);
  await once(holder, 'listening');
  t.teardown(() => holder.close());
  const port = (holder.address() as { port: number }).port;

  const start = await runCli(['start', '--port', String(port), '--storage', await workFolder(t)]);
  t.equal(start.code, 1, 'start exits rather than listen beside it');
  t.equal(start.stderr, `Error: Port ${port} is in use; choose another with --port, e.g. --port ${port + 1}.\n`);
});
