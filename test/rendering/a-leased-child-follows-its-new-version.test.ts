import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { packed, put } from '../publish/publish-helpers';
import { hashToken } from '../../src/publish/tenant-tokens';
import { parseMetrics, valueOf } from '../sandbox/parse-metrics';

// A child's plan goes to its parent's host once and is named by id afterwards. A new version its
// parent's call resolves to makes a new plan: sent whole, and run beside the parent once warm there.
const TOKEN = 'ada-secret-token';

/** The wrapper's id is new at each render: the only part of an answer that may differ. */
const withoutIds = (html: unknown) => String(html).replace(/ id="[0-9a-f-]{36}"/g, ' id="…"');

t.test('a leased child answers from the version its call resolves to, before and after a new one is published', async (t) => {
  const { url } = await startRegistry(t, [ofTenant('ada', fixture('leased-child')), ofTenant('ada', fixture('leased-parent'))], (config) => {
    config.publishTokens = [{ tenant: 'ada', sha256: hashToken(TOKEN), components: ['leased-*'] }];
  });
  const viaHost = async () => valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_nested_renders_total', { via: 'host' });
  const render = async () => {
    const answer = await request(`${url}leased-parent?case=typed`);
    t.equal(answer.status, 200);
    return withoutIds(answer.body.html);
  };

  const learnt = await render();
  t.match(learnt, /data-version="1\.0\.0"/);
  let host = await viaHost();
  for (let round = 1; round <= 3; round++) {
    t.equal(await render(), learnt, `round ${round}: the same answer beside the parent`);
    t.equal(await viaHost(), ++host, `round ${round}: the child ran beside its parent`);
  }

  const published = await put(url, 'leased-child/1.1.0', await packed(fixture('leased-child'), '1.1.0'), { token: TOKEN });
  t.same([published.status, published.body], [201, { ok: true, name: 'leased-child', version: '1.1.0' }]);

  // Cold on the host, the new version is first rendered through the front, which leaves it warm there.
  const throughFront = await render();
  t.match(throughFront, /data-version="1\.1\.0"/);
  t.match(throughFront, /leased-child\/1\.1\.0\/static\//, 'the new version\'s static files');
  t.equal(await viaHost(), host, 'the new version went through the front first');
  for (let round = 1; round <= 3; round++) {
    t.equal(await render(), throughFront, `round ${round}: the same answer beside the parent`);
    t.equal(await viaHost(), ++host, `round ${round}: the new version ran beside its parent, under its new plan`);
  }
});
