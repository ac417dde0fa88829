import { readdir, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { SPOOL_PREFIX } from '../../src/publish/spool-upload';
import { request } from '../helpers/start-registry';
import { GREETERS_TOKEN, GREETING, SHOP_TOKEN, packed, packedAs, put, startPublishRegistry } from './publish-helpers';

/** A PUT of the greeters' written by hand on a socket: its headers and the first `sent` bytes of a body of `length`. */
async function openUpload(url: string, version: string, length: number, sent: Buffer): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    `PUT /publish-greeting/${version} HTTP/1.1\r\nhost: ${hostname}:${port}\r\nauthorization: Bearer ${GREETERS_TOKEN}\r\n` +
      `content-type: application/gzip\r\ncontent-length: ${length}\r\n\r\n`,
  );
  if (sent.length > 0) socket.write(sent);
  return socket;
}

const spooled = async (): Promise<string[]> => (await readdir(os.tmpdir())).filter((name) => name.startsWith(`${SPOOL_PREFIX}${process.pid}-`));

// A tenant has at most 4 uploads arriving at once; its next waits, unread, for one of them to end.
// Four clients of the tenant start uploads and stall; four more wait for a slot and go away while
// they wait. When the stalled four go too, each slot is handed to a waiter whose client is gone: its
// body, closed already, never ends nor fails, so the slot is held for good (and a spool folder made
// for it stays). The tenant may never publish again. A client gone must give its slot back.
t.test('clients gone while waiting for an upload slot give it back: the tenant publishes afterwards', async (t) => {
  const { url } = await startPublishRegistry(t);
  // Whatever the registry leaves in the temporary folder goes with the test.
  t.teardown(async () => Promise.all((await spooled()).map((name) => rm(path.join(os.tmpdir(), name), { recursive: true, force: true }))));
  const bytes = await packed(GREETING);
  const stalled = await Promise.all([1, 2, 3, 4].map((at) => openUpload(url, `1.0.${at}`, bytes.length, bytes.subarray(0, 10))));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const waiting = await Promise.all([5, 6, 7, 8].map((at) => openUpload(url, `1.0.${at}`, bytes.length, Buffer.alloc(0))));
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (const socket of waiting) socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (const socket of stalled) socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 300));

  const shop = await put(url, 'shop-greeting/1.0.0', await packedAs('shop-greeting'), { token: SHOP_TOKEN });
  t.equal(shop.status, 201, "another tenant's publish is answered");
  // Given up after 10 s (a publish takes well under a second), so that the test ends either way.
  const answer = await request(`${url}publish-greeting/2.0.0`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${GREETERS_TOKEN}`, 'content-type': 'application/gzip' },
    body: await packed(GREETING, '2.0.0'),
    signal: AbortSignal.timeout(10_000),
  }).catch((error: Error) => ({ status: 0, body: `no answer: ${error.name}` }));
  t.same([answer.status, answer.body], [201, { ok: true, name: 'publish-greeting', version: '2.0.0' }], "the tenant's own next publish is answered");
  t.same(await spooled(), [], 'no spool folder is left behind');
});
