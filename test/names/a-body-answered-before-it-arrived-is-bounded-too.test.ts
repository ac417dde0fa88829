import net from 'node:net';
import t from 'tap';
import { startRegistry } from '../helpers/start-registry';
import { GREETING, packed, put } from '../publish/publish-helpers';
import { BYSTANDER, overlappingTenants } from './names-helpers';

const IDLE_MS = 1000;
/** Far past the idle time: a connection still open then is held for as long as its client likes. */
const GIVE_UP_MS = 30 * IDLE_MS;

function withShortIdle(config: Parameters<typeof overlappingTenants>[0]): void {
  overlappingTenants(config);
  config.limits.requestHeadersTimeoutMs = IDLE_MS;
  config.limits.requestBodyIdleMs = IDLE_MS;
}

/** Sends `text` on a raw connection and then nothing: answers the first line of the reply, and whether the registry closed the connection. */
function holdOpen(url: string, text: string): Promise<{ statusLine: string; closed: boolean }> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    let answer = '';
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ statusLine: answer.split('\r\n')[0]!, closed: false });
    }, GIVE_UP_MS);
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ statusLine: answer.split('\r\n')[0]!, closed: true });
    });
  });
}

/**
 * Decisions §15: every request has a bounded idle time for its body, also one the registry answers
 * before reading it (a route that takes no body, a refused token, a content type no route parses).
 * Once answered, Node reads such a body to its end to go on with the connection, with no time limit
 * of its own: a client that announces a body, sends a byte of it and waits holds its connection (and
 * a file descriptor) for ever, unauthenticated. Each is closed once silent for the idle time; a
 * bystander tenant publishes while they hang.
 */
t.test('a body the registry answered before reading it is held no longer than the idle time', async (t) => {
  const { url } = await startRegistry(t, [], withShortIdle);
  const held = Promise.all([
    holdOpen(url, 'GET /livez HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nX'),
    holdOpen(url, 'GET /livez HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nX\r\n'),
    holdOpen(url, 'POST /~admin/tenants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{'),
    holdOpen(url, 'DELETE /shop-cart/1.0.0 HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nX'),
    holdOpen(url, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/unknown\r\nContent-Length: 100\r\n\r\nX'),
  ]);
  const bystander = await put(url, 'publish-greeting/1.0.0', await packed(GREETING), { token: BYSTANDER });
  t.equal(bystander.status, 201, 'a bystander tenant publishes while they hang');
  const answers = await held;
  t.same(
    answers.map(({ statusLine, closed }) => [statusLine.slice(0, 12), closed]),
    [
      ['HTTP/1.1 200', true],
      ['HTTP/1.1 200', true],
      ['HTTP/1.1 401', true],
      ['HTTP/1.1 400', true],
      ['HTTP/1.1 400', true],
    ],
    'each is answered, then closed once its body is silent',
  );
});
