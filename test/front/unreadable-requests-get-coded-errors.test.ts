import { connect } from 'node:net';
import t from 'tap';
import { registryOfTheFile, startRegistry } from '../helpers/start-registry';

/** Sends raw bytes on a new connection; answers everything the registry wrote before closing it. */
function exchange(url: string, raw: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(raw));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

const statusLine = (answer: string) => answer.split('\r\n')[0];
const bodyOf = (answer: string): unknown => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile([]);

// Refused before any route runs, by the router or by Node's HTTP parser: still the §2 body, with a code.
t.test('requests the router or the HTTP parser cannot read get the coded error body', async (t) => {
  const { url } = await sharedRegistry();
  const get = (target: string, headers = '') => exchange(url, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${headers}\r\n`);

  const badEncoding = await get('/hello-world/%');
  t.equal(statusLine(badEncoding), 'HTTP/1.1 400 Bad Request');
  t.same(bodyOf(badEncoding), { code: 'NOT_VALID_REQUEST', error: 'The request URL is not valid: it has a malformed percent-encoding.', name: '', requestVersion: '' });

  const longName = await get(`/${'x'.repeat(300)}`);
  t.equal(statusLine(longName), 'HTTP/1.1 400 Bad Request');
  t.same(bodyOf(longName), { code: 'NOT_VALID_REQUEST', error: 'The request URL is not valid: a path segment is over the length limit.', name: '', requestVersion: '' });

  const hugeUrl = await get(`/hello-world?name=${'x'.repeat(20_000)}`);
  t.equal(statusLine(hugeUrl), 'HTTP/1.1 413 Payload Too Large');
  t.same(bodyOf(hugeUrl), { code: 'PAYLOAD_TOO_LARGE', error: 'The request URL and headers are over the size limit.', name: '', requestVersion: '' });

  const notHttp = await exchange(url, 'GARBAGE\r\n\r\n');
  t.equal(statusLine(notHttp), 'HTTP/1.1 400 Bad Request');
  t.same(bodyOf(notHttp), { code: 'NOT_VALID_REQUEST', error: 'The request is not valid HTTP.', name: '', requestVersion: '' });

  const fine = await get('/livez');
  t.equal(statusLine(fine), 'HTTP/1.1 200 OK', 'the registry serves on');
});

// Refused before the CORS hook runs, the answer still carries its CORS headers: a page on another
// origin reads the coded 400, not a CORS failure.
t.test('a URL the router cannot read is answered with the CORS headers of the origin rule', async (t) => {
  const headersOf = (answer: string) => answer.slice(0, answer.indexOf('\r\n\r\n')).toLowerCase();
  const ask = (url: string, origin: string) =>
    exchange(url, `GET /hello-world/% HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nOrigin: ${origin}\r\n\r\n`);

  const open = await sharedRegistry();
  const anyOrigin = await ask(open.url, 'https://shop.example');
  t.equal(statusLine(anyOrigin), 'HTTP/1.1 400 Bad Request');
  t.match(headersOf(anyOrigin), /\r\naccess-control-allow-origin: \*\r\n/);

  const listed = await startRegistry(t, [], (config) => (config.cors.origins = ['https://shop.example']));
  const fromListed = await ask(listed.url, 'https://shop.example');
  t.match(headersOf(fromListed), /\r\naccess-control-allow-origin: https:\/\/shop\.example\r\n/);
  t.match(headersOf(fromListed), /\r\nvary: origin\r\n/);
  const fromOther = await ask(listed.url, 'https://evil.example');
  t.equal(statusLine(fromOther), 'HTTP/1.1 400 Bad Request');
  t.notMatch(headersOf(fromOther), /access-control-allow-origin/);

  // One rule for both: the refused URL's CORS headers are those a routed answer to the same origin gets.
  const corsLines = (answer: string) => headersOf(answer).split('\r\n').filter((line) => /^(vary|access-control-[a-z-]+):/.test(line));
  const routed = (url: string, origin: string) => exchange(url, `GET /livez HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nOrigin: ${origin}\r\n\r\n`);
  for (const [url, origin, expected] of [
    [open.url, 'https://shop.example', ['vary: origin', 'access-control-allow-origin: *']],
    [listed.url, 'https://shop.example', ['vary: origin', 'access-control-allow-origin: https://shop.example']],
    [listed.url, 'https://evil.example', ['vary: origin']],
  ] as const) {
    t.same(corsLines(await ask(url, origin)), expected, `${origin}: the refused URL's`);
    t.same(corsLines(await routed(url, origin)), expected, `${origin}: a routed answer's`);
  }
});
