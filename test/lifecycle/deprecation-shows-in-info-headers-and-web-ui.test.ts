import t from 'tap';
import { GREETERS_TOKEN, GREETING, packed, put, SHOP_TOKEN, startPublishRegistry } from '../publish/publish-helpers';
import { request } from '../helpers/start-registry';
import { ADMIN_TOKEN, deprecate, lifecycleRecords, lifecycleTokens, undeprecate, lifecycleAudit } from './lifecycle-helpers';

t.test('a deprecated version shows its message in ~info and the web UI, and its renders carry Deprecation and Link headers', async (t) => {
  const started = await startPublishRegistry(t, lifecycleTokens);
  const { url } = started;
  const storage = started.registry.storage;
  t.equal((await put(url, 'publish-greeting/1.0.0', await packed(GREETING, '1.0.0'))).status, 201);
  t.equal((await put(url, 'publish-greeting/2.0.0', await packed(GREETING, '2.0.0'))).status, 201);

  const refused = await deprecate(url, 'publish-greeting/1.0.0', SHOP_TOKEN, 'Use 2.x');
  t.equal(refused.status, 403);
  t.same(refused.body, {
    code: 'FORBIDDEN',
    error: 'Tenant "shop" may not deprecate publish-greeting@1.0.0: it belongs to tenant "greeters".',
    name: 'publish-greeting',
    requestVersion: '1.0.0',
  });
  const noMessage = await deprecate(url, 'publish-greeting/1.0.0', GREETERS_TOKEN, '');
  t.equal(noMessage.status, 400);
  t.same(noMessage.body, {
    code: 'POST_BODY_NOT_VALID',
    error: 'Send a JSON body {"message": "…"} whose message says why, in at most 1000 characters.',
    name: 'publish-greeting',
    requestVersion: '1.0.0',
  });
  t.same(await lifecycleRecords(storage), { unpublished: [], deprecations: [], audit: 0, lifecycleEntries: [] }, 'refusals write nothing');

  const answer = await deprecate(url, 'publish-greeting/1.0.0', GREETERS_TOKEN, 'Use 2.x: <b>1.x</b> ends in March.');
  t.equal(answer.status, 200);
  const { date } = answer.body.deprecation;
  t.match(date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.same(answer.body, { ok: true, name: 'publish-greeting', version: '1.0.0', state: 'deprecated', deprecation: { message: 'Use 2.x: <b>1.x</b> ends in March.', date } });

  const info = await request(`${url}publish-greeting/1.0.0/~info`);
  t.equal(info.status, 200);
  t.equal(info.body.state, 'deprecated');
  t.same(info.body.deprecation, { message: 'Use 2.x: <b>1.x</b> ends in March.', date });
  const latestInfo = await request(`${url}publish-greeting/~info`);
  t.equal(latestInfo.body.version, '2.0.0');
  t.equal(latestInfo.body.state, undefined, 'the other version is not deprecated');
  t.equal(latestInfo.body.deprecation, undefined);

  const rendered = await request(`${url}publish-greeting/1.0.0?name=Ada`);
  t.equal(rendered.status, 200, 'a deprecated version still renders');
  t.equal(rendered.headers.get('deprecation'), `@${Math.floor(Date.parse(date) / 1000)}`);
  t.equal(rendered.headers.get('link'), `<${url}publish-greeting/1.0.0/~info>; rel="deprecation"; type="text/html"`);
  const byRange = await request(`${url}publish-greeting/1.x?name=Ada`);
  t.equal(byRange.body.version, '1.0.0');
  t.equal(byRange.headers.get('deprecation'), `@${Math.floor(Date.parse(date) / 1000)}`, 'whatever expression resolved to it');
  const latest = await request(`${url}publish-greeting?name=Ada`);
  t.equal(latest.headers.get('deprecation'), null);

  const page = await request(`${url}publish-greeting/1.0.0/~info`, { headers: { accept: 'text/html' } });
  t.equal(page.status, 200);
  t.match(page.text, '<span class="badge deprecated">deprecated</span>');
  t.match(page.text, /<p class="deprecation" role="note"><strong>Deprecated<\/strong> since <time datetime="[^"]+">[^<]+<\/time>: Use 2\.x: &lt;b&gt;1\.x&lt;\/b&gt; ends in March\.<\/p>/);
  const otherPage = await request(`${url}publish-greeting/2.0.0/~info`, { headers: { accept: 'text/html' } });
  t.notMatch(otherPage.text, 'class="deprecation"');

  const undone = await undeprecate(url, 'publish-greeting/1.0.0', ADMIN_TOKEN);
  t.equal(undone.status, 200);
  t.same(undone.body, { ok: true, name: 'publish-greeting', version: '1.0.0', state: 'active' });
  t.equal((await request(`${url}publish-greeting/1.0.0/~info`)).body.deprecation, undefined);
  t.equal((await request(`${url}publish-greeting/1.0.0?name=Ada`)).headers.get('deprecation'), null);

  const audit = await lifecycleAudit(storage);
  t.same(
    audit.entries.map(({ action, tenant, tokenId, component, details }) => ({ action, tenant, tokenId, component, details })),
    [
      { action: 'deprecate', tenant: 'greeters', tokenId: 'config:greeters', component: 'publish-greeting@1.0.0', details: { message: 'Use 2.x: <b>1.x</b> ends in March.' } },
      { action: 'deprecate', tenant: null, tokenId: 'admin', component: 'publish-greeting@1.0.0', details: { deprecated: false } },
    ],
    'both changes, in order',
  );

  // The latest version deprecated: the list shows it so, for browsers and as metadata.
  t.equal((await deprecate(url, 'publish-greeting/2.0.0', ADMIN_TOKEN, 'Moving to publish-greeting-next.')).status, 200);
  const list = await request(url, { headers: { accept: 'text/html' } });
  t.match(list.text, /<span class="version">2\.0\.0<\/span><span class="badge deprecated">deprecated<\/span>/, 'the web UI list shows it');
  const meta = await request(`${url}?meta=true`);
  t.equal(meta.body.components.find((entry: { name: string }) => entry.name === 'publish-greeting').state, 'deprecated', 'and so does ?meta=true');
});
