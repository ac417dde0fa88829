import http from 'node:http';
import t from 'tap';
import { request } from '../helpers/start-registry';
import { GREETERS_TOKEN, GREETING, SHOP_TOKEN, packed, startPublishRegistry } from './publish-helpers';

/**
 * One tenant opens a publish and sends its body a byte at a time, or not at all after the first
 * bytes (a slow or stalled client, or one on purpose). Publishes run in `limits.publishThreads`
 * (1) threads, each held by its upload from the first byte to the last, with no time limit on the
 * upload: every other tenant's publish waits behind it for as long as the connection stays open.
 */

/** Opens `PUT /shop-greeting/1.0.0` with the shop's token and sends a genuine package a byte a second; answers how to end it. */
async function stallUpload(url: string): Promise<() => void> {
  const bytes = await packed(GREETING);
  return new Promise((resolve) => {
    const stalled = http.request(`${url}shop-greeting/1.0.0`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${SHOP_TOKEN}`, 'content-type': 'application/gzip', 'content-length': String(bytes.length) },
    });
    stalled.on('error', () => {});
    stalled.on('response', (response) => response.resume());
    // Every byte sent is a valid start of the gzip stream: nothing the thread reads is wrong, it is only slow.
    let sent = 1;
    stalled.write(bytes.subarray(0, 1));
    const drip = setInterval(() => stalled.write(bytes.subarray(sent, ++sent)), 1000);
    // Let the front hand it to the publish thread.
    setTimeout(() => resolve(() => {
      clearInterval(drip);
      stalled.destroy();
    }), 1500);
  });
}

t.test("a stalled upload of one tenant does not hold another tenant's publish", async (t) => {
  const { url } = await startPublishRegistry(t);
  const endStall = await stallUpload(url);
  t.teardown(endStall);

  const started = Date.now();
  // The stalled upload drips until the end of the test: waiting behind it, this publish is never answered (given up after 15 s).
  const answer = await request(`${url}publish-greeting/1.0.0`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${GREETERS_TOKEN}`, 'content-type': 'application/gzip' },
    body: await packed(GREETING),
    signal: AbortSignal.timeout(15_000),
  }).catch((error: Error) => ({ status: 0, body: `no answer: ${error.name}`, text: '' }));
  const took = Date.now() - started;
  t.equal(answer.status, 201, `the greeters' publish is answered (after ${took} ms)`);
  endStall();
  t.equal((await request(`${url}publish-greeting/1.0.0?name=Ada`)).status, 200);
});
