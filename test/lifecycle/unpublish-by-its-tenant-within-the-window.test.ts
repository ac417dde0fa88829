import t from 'tap';
import { defaultConfig } from '../../src/config/config';
import { createRegistry } from '../../src/registry';
import { GREETERS_TOKEN, GREETING, packed, put, startPublishRegistry } from '../publish/publish-helpers';
import { request } from '../helpers/start-registry';
import { lifecycleTokens, unpublish, lifecycleAudit } from './lifecycle-helpers';

t.test('the publishing tenant unpublishes a version: 410 GONE for it, expressions resolve to the others, its number stays taken', async (t) => {
  const started = await startPublishRegistry(t, lifecycleTokens);
  const { url } = started;
  t.equal((await put(url, 'publish-greeting/1.0.0', await packed(GREETING, '1.0.0'))).status, 201);
  t.equal((await put(url, 'publish-greeting/1.1.0', await packed(GREETING, '1.1.0'))).status, 201);
  t.equal((await request(`${url}publish-greeting?name=Ada`)).body.version, '1.1.0');

  const answer = await unpublish(url, 'publish-greeting/1.1.0', GREETERS_TOKEN);
  t.equal(answer.status, 200);
  t.same(answer.body, { ok: true, name: 'publish-greeting', version: '1.1.0', state: 'unpublished' });

  const gone = {
    code: 'GONE',
    error: 'publish-greeting@1.1.0 was unpublished; other versions: 1.0.0.',
    name: 'publish-greeting',
    requestVersion: '1.1.0',
  };
  const rendered = await request(`${url}publish-greeting/1.1.0?name=Ada`);
  t.equal(rendered.status, 410);
  t.same(rendered.body, gone, 'render of the exact version');
  const info = await request(`${url}publish-greeting/1.1.0/~info`);
  t.equal(info.status, 410);
  t.same(info.body, gone, 'its info');
  const template = await request(`${url}publish-greeting/1.1.0/static/template.js`);
  t.equal(template.status, 410);
  t.same(template.body, gone, 'its static files');

  for (const expression of ['', '/latest', '/1.x', '/^1.0.0']) {
    const latest = await request(`${url}publish-greeting${expression}?name=Ada`);
    t.equal(latest.status, 200, `"${expression}" still renders`);
    t.equal(latest.body.version, '1.0.0', `"${expression}" resolves to the version left`);
  }
  t.same((await request(`${url}publish-greeting/~info`)).body.allVersions, ['1.0.0']);

  const again = await put(url, 'publish-greeting/1.1.0', await packed(GREETING, '1.1.0'));
  t.equal(again.status, 409, 'the number is never published again');
  t.same(again.body, {
    code: 'ALREADY_EXISTS',
    error: 'publish-greeting@1.1.0 is already published; versions are immutable.',
    name: 'publish-greeting',
    requestVersion: '1.1.0',
  });
  const twice = await unpublish(url, 'publish-greeting/1.1.0', GREETERS_TOKEN);
  t.equal(twice.status, 410);
  t.same(twice.body, gone);

  const audit = await lifecycleAudit(started.registry.storage);
  t.same(
    audit.entries.map(({ action, tenant, tokenId, component, client }) => ({ action, tenant, tokenId, component, client })),
    [{ action: 'unpublish', tenant: 'greeters', tokenId: 'config:greeters', component: 'publish-greeting@1.1.0', client: '127.0.0.1' }],
  );

  // A replica started later reads the tombstone at its start (from the index and the lifecycle records).
  await started.registry.close();
  const config = defaultConfig();
  config.port = 0;
  config.storagePath = started.storagePath;
  config.pollIntervalSeconds = 0;
  config.limits.sandboxHosts = 1;
  config.limits.frontThreads = 1;
  const restarted = await createRegistry(config);
  const restartedUrl = await restarted.listen();
  t.teardown(() => restarted.close());
  const afterRestart = await request(`${restartedUrl}publish-greeting/1.1.0`);
  t.equal(afterRestart.status, 410);
  t.equal(afterRestart.body.code, 'GONE');
  t.equal((await request(`${restartedUrl}publish-greeting?name=Ada`)).body.version, '1.0.0');
});
