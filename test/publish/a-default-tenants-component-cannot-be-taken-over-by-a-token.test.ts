import t from 'tap';
import { request, startRegistry } from '../helpers/start-registry';
import { GREETING, packed, publishTokens, put } from './publish-helpers';

/**
 * `publish-greeting` is on the registry with no publisher in its descriptor: the configured default
 * tenant's (docs/reference/configuration.md, `tenants.default`), and it renders, is counted and is billed as that tenant's.
 * The greeters' token pattern covers its name; a component belongs to the tenant of its latest
 * version, so the greeters may not publish a newer version over the default tenant's.
 */
t.test("a tenant's token cannot publish over the default tenant's component", async (t) => {
  const { url } = await startRegistry(t, [GREETING], (config) => {
    config.limits.sandboxHosts = 1;
    config.publishTokens = publishTokens();
  });
  t.equal((await request(`${url}publish-greeting?name=Ada`)).body.version, '1.0.0');

  const takeover = await put(url, 'publish-greeting/2.0.0', await packed(GREETING, '2.0.0'));
  t.equal(takeover.status, 403, `refused (answered ${takeover.status} ${takeover.text})`);
  t.equal(takeover.body.code, 'FORBIDDEN');
  const after = await request(`${url}publish-greeting?name=Ada`);
  t.equal(after.status, 200);
  t.equal(after.body.version, '1.0.0', "visitors still get the default tenant's latest version");
});
