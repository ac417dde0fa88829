import t from 'tap';
import { hashToken } from '../../src/publish/tenant-tokens';
import { eventually } from '../cli/run-cli';
import { GREETING, packed, put } from '../publish/publish-helpers';
import { startS3Registry } from '../helpers/start-s3-registry';
import { startS3Server } from '../helpers/s3-server';
import { request } from '../helpers/start-registry';
import { admin, tenantWithToken, withAdmin } from './admin-helpers';

const POLL_SECONDS = 0.5;

t.test('two replicas over one S3 store: a token made on one publishes on the other, and once revoked on the first is refused on the second', async (t) => {
  const server = await startS3Server(t);
  const options = {
    prefix: 'tenants',
    endpoint: server.endpoint,
    storage: { settleMs: 100 },
    configure: (config: Parameters<typeof withAdmin>[0]) => {
      withAdmin(config);
      config.pollIntervalSeconds = POLL_SECONDS;
    },
  };
  const first = await startS3Registry(t, options);
  const second = await startS3Registry(t, options);

  const { id, token } = await tenantWithToken(first.url, { name: 'greeters', components: ['publish-greet*'] });
  // The second replica knows the token from its next poll.
  let published = await put(second.url, 'publish-greeting/1.0.0', await packed(GREETING), { token });
  for (const started = Date.now(); published.status === 401 && Date.now() - started < 5000; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    published = await put(second.url, 'publish-greeting/1.0.0', await packed(GREETING), { token });
  }
  t.equal(published.status, 201);
  t.same(published.body, { ok: true, name: 'publish-greeting', version: '1.0.0' });

  t.equal((await admin(first.url, 'DELETE', `tokens/${id}`)).status, 200);
  // At once, before the second replica polls: its publish thread reads the revocation before storing.
  const atOnce = await put(second.url, 'publish-greeting/1.0.1', await packed(GREETING, '1.0.1'), { token });
  t.equal(atOnce.status, 401);
  if (atOnce.body.error !== 'A valid publish token is required: send "Authorization: Bearer <token>".') {
    t.same(atOnce.body, { code: 'UNAUTHORIZED', error: 'This publish token was revoked; ask the registry administrator for a new one.', name: 'publish-greeting', requestVersion: '1.0.1' });
  }
  t.same(await first.registry.storage.listVersions('publish-greeting'), ['1.0.0'], 'nothing was stored');

  // Within the poll interval (and a storage read), the second replica reads the revocation: its front refuses it before reading the upload.
  await t.resolves(eventually(async () => second.registry.tenants.liveToken(hashToken(token)) === undefined, POLL_SECONDS * 1000 * 2 + 500, 20), 'the second replica reads the revocation');
  const later = await put(second.url, 'publish-greeting/1.0.1', await packed(GREETING, '1.0.1'), { token });
  t.equal(later.status, 401);
  t.same(later.body, { code: 'UNAUTHORIZED', error: 'A valid publish token is required: send "Authorization: Bearer <token>".', name: 'publish-greeting', requestVersion: '1.0.1' });
  t.equal((await request(`${second.url}publish-greeting/1.0.1`)).status, 404);
});
