import http from 'node:http';
import t from 'tap';
import { GREETERS_TOKEN, GREETING, packed, put, startPublishRegistry } from '../publish/publish-helpers';
import { deprecate, lifecycleTokens } from './lifecycle-helpers';

/** Enough connections that both front threads receive some (the kernel hands each new connection to one of them). */
const CONNECTIONS = 16;

/** A request on a connection of its own: status and the Deprecation header. */
function fresh(url: string, method = 'GET', token?: string): Promise<{ status: number; deprecation: string | undefined }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const sent = http.request(url, { method, agent: false, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode!, deprecation: response.headers['deprecation'] as string | undefined }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

t.test('with two front threads and no polling, an unpublish or a deprecation is applied by both before it is answered', async (t) => {
  const { url } = await startPublishRegistry(t, (config) => {
    lifecycleTokens(config);
    config.limits.frontThreads = 2;
  });
  t.equal((await put(url, 'publish-greeting/1.0.0', await packed(GREETING, '1.0.0'))).status, 201);
  t.equal((await put(url, 'publish-greeting/1.1.0', await packed(GREETING, '1.1.0'))).status, 201);

  // Sent on connections of their own: whichever thread receives one applies it, then tells the other.
  t.equal((await fresh(`${url}publish-greeting/1.1.0`, 'DELETE', GREETERS_TOKEN)).status, 200);
  const renders = await Promise.all(Array.from({ length: CONNECTIONS }, () => fresh(`${url}publish-greeting/1.1.0`)));
  t.same(renders.map(({ status }) => status), renders.map(() => 410), 'every thread answers GONE');

  const deprecated = await deprecate(url, 'publish-greeting/1.0.0', GREETERS_TOKEN, 'Use 2.x');
  t.equal(deprecated.status, 200);
  const seconds = `@${Math.floor(Date.parse(deprecated.body.deprecation.date) / 1000)}`;
  const latest = await Promise.all(Array.from({ length: CONNECTIONS }, () => fresh(`${url}publish-greeting?name=Ada`)));
  t.same(latest, latest.map(() => ({ status: 200, deprecation: seconds })), 'every thread resolves latest to 1.0.0 and knows it is deprecated');
});
