import http from 'node:http';
import net from 'node:net';
import t from 'tap';
import { startRegistry } from '../helpers/start-registry';
import { GREETING, packed, put } from '../publish/publish-helpers';
import { BYSTANDER, COOKIE_KEEPER, SHOP, overlappingTenants, packedAs } from './names-helpers';

// Long enough that a busy machine never delays a steady upload's next piece past it (pieces go every quarter of it).
const IDLE_MS = 1000;

function withShortIdle(config: Parameters<typeof overlappingTenants>[0]): void {
  overlappingTenants(config);
  config.limits.requestHeadersTimeoutMs = IDLE_MS;
  config.limits.requestBodyIdleMs = IDLE_MS;
}

/** Writes `text` to a raw connection and answers everything the registry sends back until it closes. */
function rawExchange(url: string, text: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** A PUT of `body` written `sent` bytes, then `more(req)` decides what follows. */
function upload(url: string, id: string, token: string, body: Buffer, drip: (req: http.ClientRequest) => void): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${id}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip', 'content-length': body.length } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) }));
    });
    req.on('error', reject);
    drip(req);
  });
}

t.test('headers that stop arriving are answered 408 REQUEST_TIMEOUT and the connection closed', async (t) => {
  const { url } = await startRegistry(t, [], withShortIdle);
  const answer = await rawExchange(url, 'GET /publish-greeting HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ');
  t.match(answer, /^HTTP\/1\.1 408 Request Timeout\r\n/);
  t.same(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), {
    code: 'REQUEST_TIMEOUT',
    error: 'The request headers did not all arrive within the time limit (limits.requestHeadersTimeoutMs).',
    name: '',
    requestVersion: '',
  });
});

/**
 * A tenant sends half of four uploads and then nothing: each is answered 408 once its body has been
 * silent for the idle time, and its upload slot is given back (a tenant has four), so the tenant's
 * next publish goes through; a bystander tenant publishes while they hang.
 */
t.test('an upload that stops sending is answered 408 and frees its slot', async (t) => {
  const { url, registry } = await startRegistry(t, [], withShortIdle);
  const body = await packedAs(COOKIE_KEEPER, 'shop-stalled', '1.0.0');
  const stalled = Array.from({ length: 4 }, () => upload(url, 'shop-stalled/1.0.0', SHOP, body, (req) => req.write(body.subarray(0, 100))));
  const bystander = await put(url, 'publish-greeting/1.0.0', await packed(GREETING), { token: BYSTANDER });
  t.equal(bystander.status, 201, 'another tenant publishes while the uploads hang');
  for (const answer of await Promise.all(stalled)) {
    t.same(answer, {
      status: 408,
      body: { code: 'REQUEST_TIMEOUT', error: `Nothing of the request body arrived for ${IDLE_MS} ms (limits.requestBodyIdleMs): the request was given up.`, name: 'shop-stalled', requestVersion: '1.0.0' },
    });
  }
  const next = await put(url, 'shop-stalled/1.0.0', body, { token: SHOP });
  t.same([next.status, next.body], [201, { ok: true, name: 'shop-stalled', version: '1.0.0' }], 'the tenant publishes again: its slots were given back');
  t.same(await registry.storage.listVersions('shop-stalled'), ['1.0.0']);
});

t.test('a slow upload that keeps sending is never cut', async (t) => {
  const { url } = await startRegistry(t, [], withShortIdle);
  const body = await packedAs(COOKIE_KEEPER, 'shop-slow', '1.0.0');
  // Eight pieces, one every quarter of the idle time: it takes twice the idle time in all.
  const pieces = 8;
  const size = Math.ceil(body.length / pieces);
  const answer = await upload(url, 'shop-slow/1.0.0', SHOP, body, (req) => {
    let sent = 0;
    const next = (): void => {
      const piece = body.subarray(sent * size, (sent + 1) * size);
      sent += 1;
      if (sent >= pieces) req.end(piece);
      else {
        req.write(piece);
        setTimeout(next, IDLE_MS / 4);
      }
    };
    next();
  });
  t.same(answer, { status: 201, body: { ok: true, name: 'shop-slow', version: '1.0.0' } });
});
