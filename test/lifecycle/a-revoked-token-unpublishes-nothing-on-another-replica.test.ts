import t from 'tap';
import { defaultConfig } from '../../src/config/config';
import { createRegistry } from '../../src/registry';
import { GREETING, packed, put, startPublishRegistry } from '../publish/publish-helpers';
import { request } from '../helpers/start-registry';
import { admin, tenantWithToken, withAdmin } from '../tenants/admin-helpers';
import { deprecate, unpublish } from './lifecycle-helpers';

/**
 * Two replicas over one storage folder. A stored tenant's token is revoked on the first; the
 * second has not polled since. A publish through the second is refused at once (its publish thread
 * reads the revocation from storage before it stores). Unpublishing, which cannot be undone, must
 * be refused as well: a leaked token revoked by the administrator must not be able to remove a
 * version from every replica through a replica that has not polled yet.
 */

t.test('a token revoked on one replica cannot unpublish or deprecate through another that has not polled yet', async (t) => {
  const first = await startPublishRegistry(t, withAdmin);
  const { id, token } = await tenantWithToken(first.url, { name: 'blog', components: ['publish-greet*'] });
  t.equal((await put(first.url, 'publish-greeting/1.0.0', await packed(GREETING), { token })).status, 201);

  const config = defaultConfig();
  config.port = 0;
  config.storagePath = first.storagePath;
  withAdmin(config);
  // It polls once a minute: within this test, it knows only what it read at its start.
  config.pollIntervalSeconds = 60;
  config.limits.sandboxHosts = 1;
  config.limits.frontThreads = 1;
  const second = await createRegistry(config);
  const secondUrl = await second.listen();
  t.teardown(() => second.close());
  t.equal((await request(`${secondUrl}publish-greeting/1.0.0?name=Ada`)).status, 200, 'the second replica serves the version');

  t.equal((await admin(first.url, 'DELETE', `tokens/${id}`)).status, 200, 'revoked on the first replica');

  const publish = await put(secondUrl, 'publish-greeting/1.0.1', await packed(GREETING, '1.0.1'), { token });
  t.equal(publish.status, 401, 'a publish through the second replica is refused at once');

  const removed = await unpublish(secondUrl, 'publish-greeting/1.0.0', token);
  t.equal(removed.status, 401, 'an unpublish through the second replica is refused too');
  t.match(removed.body, { code: 'UNAUTHORIZED', name: 'publish-greeting', requestVersion: '1.0.0' });
  const deprecated = await deprecate(secondUrl, 'publish-greeting/1.0.0', token, 'taken over');
  t.equal(deprecated.status, 401, 'a deprecation through the second replica is refused too');

  t.equal((await request(`${first.url}publish-greeting/1.0.0?name=Ada`)).status, 200, 'the version still renders on the first replica');
  t.equal((await request(`${secondUrl}publish-greeting/1.0.0?name=Ada`)).status, 200, 'and on the second');
});
