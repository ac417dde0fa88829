import t from 'tap';
import { GREETERS_TOKEN, GREETING, packed, put } from '../publish/publish-helpers';
import { startS3Server, useS3Server } from '../helpers/s3-server';
import { startS3Registry } from '../helpers/start-s3-registry';
import { request } from '../helpers/start-registry';
import { deprecate, eventually, lifecycleTokens, unpublish, lifecycleAudit } from './lifecycle-helpers';

t.test('two replicas on one S3 bucket: what one unpublishes or deprecates, the other applies at its next poll', async (t) => {
  useS3Server(t, await startS3Server(t));
  const configure = (config: Parameters<NonNullable<Parameters<typeof startS3Registry>[1]['configure']>>[0]) => {
    lifecycleTokens(config);
    config.pollIntervalSeconds = 0.5;
  };
  const first = await startS3Registry(t, { prefix: 'lifecycle', configure });
  const second = await startS3Registry(t, { prefix: 'lifecycle', configure });
  t.equal((await put(first.url, 'publish-greeting/1.0.0', await packed(GREETING, '1.0.0'))).status, 201);
  t.equal((await put(first.url, 'publish-greeting/1.1.0', await packed(GREETING, '1.1.0'))).status, 201);
  await eventually(async () => (await request(`${second.url}publish-greeting?name=Ada`)).body.version === '1.1.0');

  t.equal((await unpublish(first.url, 'publish-greeting/1.1.0', GREETERS_TOKEN)).status, 200);
  await eventually(async () => (await request(`${second.url}publish-greeting/1.1.0`)).status === 410);
  const gone = await request(`${second.url}publish-greeting/1.1.0?name=Ada`);
  t.same(gone.body, { code: 'GONE', error: 'publish-greeting@1.1.0 was unpublished; other versions: 1.0.0.', name: 'publish-greeting', requestVersion: '1.1.0' });
  const latest = await request(`${second.url}publish-greeting?name=Ada`);
  t.equal(latest.status, 200);
  t.equal(latest.body.version, '1.0.0', 'the other replica resolves latest to the version left');
  t.same((await request(`${second.url}publish-greeting/~info`)).body.allVersions, ['1.0.0']);
  const again = await put(second.url, 'publish-greeting/1.1.0', await packed(GREETING, '1.1.0'));
  t.equal(again.status, 409, 'the other replica refuses the number too');
  t.equal(again.body.code, 'ALREADY_EXISTS');

  const deprecated = await deprecate(second.url, 'publish-greeting/1.0.0', GREETERS_TOKEN, 'Moving to 2.x');
  t.equal(deprecated.status, 200);
  await eventually(async () => (await request(`${first.url}publish-greeting/1.0.0/~info`)).body.state === 'deprecated');
  t.same((await request(`${first.url}publish-greeting/1.0.0/~info`)).body.deprecation, deprecated.body.deprecation);
  t.equal((await request(`${first.url}publish-greeting/1.0.0?name=Ada`)).headers.get('deprecation'), `@${Math.floor(Date.parse(deprecated.body.deprecation.date) / 1000)}`);

  const audit = await lifecycleAudit(first.registry.storage);
  t.same(
    audit.entries.map(({ action, component }) => [action, component]),
    [
      ['unpublish', 'publish-greeting@1.1.0'],
      ['deprecate', 'publish-greeting@1.0.0'],
    ],
    "both replicas' changes in one log, in order",
  );
});
