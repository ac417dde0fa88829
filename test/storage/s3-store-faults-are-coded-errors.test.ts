import t from 'tap';
import type { RegistryConfig } from '../../src/config/config';
import { GREETING, packed, publishTokens, put } from '../publish/publish-helpers';
import { startS3FaultProxy } from '../helpers/s3-fault-proxy';
import { startS3Registry } from '../helpers/start-s3-registry';
import { startS3Server } from '../helpers/s3-server';
import { request } from '../helpers/start-registry';

// Long enough for one call to the store on a busy machine (1.5 s was passed beside a second suite);
// the two stalls below wait it out.
const STORAGE_TIMEOUT_MS = 4000;

/**
 * As a client told `Retry-After` does: a publish makes a dozen calls to the store, each within the
 * short deadline above, which one may pass on a machine whose CPUs are busy with other work (beside a
 * second suite, the first publish did).
 */
async function publishRetried(url: string, target: string, version?: string): Promise<Awaited<ReturnType<typeof put>>> {
  let answer = await put(url, target, await packed(GREETING, version));
  for (let attempt = 1; attempt < 5 && answer.status === 503 && answer.body.code === 'STORAGE_UNAVAILABLE'; attempt++) {
    answer = await put(url, target, await packed(GREETING, version));
  }
  return answer;
}

const unavailable = (error: string, name: string, requestVersion: string) => ({ code: 'STORAGE_UNAVAILABLE', error, name, requestVersion });

t.test('a store answering 500, stalling or stopped gives 503 STORAGE_UNAVAILABLE at once, and never a half-visible version', async (t) => {
  const server = await startS3Server(t);
  const proxy = await startS3FaultProxy(t, server.endpoint);
  const configure = (config: RegistryConfig) => {
    config.publishTokens = publishTokens();
    config.limits.storageTimeoutMs = STORAGE_TIMEOUT_MS;
  };
  // One replica reaches the store through the proxy (errors, stalls), the other directly (a stopped store).
  const { url } = await startS3Registry(t, { prefix: 'faults', endpoint: proxy.endpoint, storage: { settleMs: 200 }, configure });
  const direct = await startS3Registry(t, { prefix: 'faults', endpoint: server.endpoint, storage: { settleMs: 200 }, configure });
  t.equal((await publishRetried(url, 'publish-greeting/1.0.0')).status, 201);
  await direct.registry.catalog.refresh();
  t.equal((await request(`${direct.url}publish-greeting/1.0.0?name=Ada`)).status, 200);
  const css = `${url}publish-greeting/1.0.0/static/public/greeting.css`;
  const directCss = `${direct.url}publish-greeting/1.0.0/static/public/greeting.css`;

  proxy.mode = { kind: 'fail', status: 500 };
  const failing = await request(css);
  t.equal(failing.status, 503);
  t.equal(failing.headers.get('retry-after'), '1');
  t.same(failing.body, unavailable('The component storage answered with an error (HTTP 500); retry later.', 'publish-greeting', '1.0.0'));

  proxy.mode = { kind: 'stall' };
  let started = Date.now();
  const stalled = await request(css);
  const waited = Date.now() - started;
  t.equal(stalled.status, 503);
  t.same(stalled.body, unavailable(`The component storage did not answer within ${STORAGE_TIMEOUT_MS} ms; retry later.`, 'publish-greeting', '1.0.0'));
  t.ok(waited >= STORAGE_TIMEOUT_MS && waited < STORAGE_TIMEOUT_MS + 3000, `answered after the deadline, not later (${waited} ms)`);

  const stalledPublish = await put(url, 'publish-greeting/1.1.0', await packed(GREETING, '1.1.0'));
  t.equal(stalledPublish.status, 503, 'a publish against a stalled store fails with the coded error');
  t.equal(stalledPublish.body.code, 'STORAGE_UNAVAILABLE');

  proxy.mode = { kind: 'pass' };
  await server.stop();
  started = Date.now();
  const stopped = await request(directCss);
  t.equal(stopped.status, 503);
  t.same(stopped.body, unavailable('The component storage could not be reached; retry later.', 'publish-greeting', '1.0.0'));
  t.ok(Date.now() - started < STORAGE_TIMEOUT_MS + 3000, 'a refused connection answers at once');
  const stoppedPublish = await put(direct.url, 'publish-greeting/1.2.0', await packed(GREETING, '1.2.0'));
  t.equal(stoppedPublish.status, 503);
  t.equal(stoppedPublish.body.code, 'STORAGE_UNAVAILABLE');

  const rendered = await request(`${direct.url}publish-greeting/1.0.0?name=Ada`);
  t.equal(rendered.status, 200, 'a version whose code this replica holds still renders while the store is down');

  await server.start();
  t.same(await direct.registry.storage.listVersions('publish-greeting'), ['1.0.0'], 'the failed publishes left no version behind');
  t.equal((await request(directCss)).status, 200, 'the store is back: files are served again');
  t.equal((await publishRetried(direct.url, 'publish-greeting/1.1.0', '1.1.0')).status, 201, 'and the failed version can be published');
});
