import t, { type Test } from 'tap';
import { startS3Registry } from '../helpers/start-s3-registry';
import { startS3Server } from '../helpers/s3-server';
import { startRegistry } from '../helpers/start-registry';
import { GREETING, packed, put } from '../publish/publish-helpers';
import { admin, tenantWithToken, withAdmin } from '../tenants/admin-helpers';
import { unpublish } from '../lifecycle/lifecycle-helpers';
import { replicaOver } from './names-helpers';

interface Replica {
  url: string;
  registry: { tenants: { refresh(): Promise<void> } };
}

/**
 * Eight unpublishes of one version at once, through two replicas: the tombstone is created once, so
 * exactly one is answered 200 and gives the version's quota unit back; the others find it gone
 * (410). The tenant then holds exactly its limit of live versions, and the audit log one unpublish.
 */
async function racingUnpublishes(t: Test, first: Replica, second: Replica): Promise<void> {
  const { token } = await tenantWithToken(first.url, { name: 'team-w', components: ['publish-greet*'], quotas: { versionsPerComponent: 2 } });
  // What the second replica's next poll does: it knows the token.
  await second.registry.tenants.refresh();
  t.equal((await put(first.url, 'publish-greeting/1.0.0', await packed(GREETING), { token })).status, 201);
  t.equal((await put(first.url, 'publish-greeting/1.0.1', await packed(GREETING, '1.0.1'), { token })).status, 201);
  t.equal((await put(first.url, 'publish-greeting/1.0.2', await packed(GREETING, '1.0.2'), { token })).status, 429, 'at its limit of 2 live versions');

  const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => unpublish([first, second][i % 2]!.url, 'publish-greeting/1.0.0', token)));
  const statuses = answers.map((answer) => answer.status).sort();
  t.same(statuses, [200, 410, 410, 410, 410, 410, 410, 410], 'one unpublish, seven find it gone');
  for (const refused of answers.filter((answer) => answer.status === 410)) t.equal(refused.body.code, 'GONE');

  t.equal((await put(first.url, 'publish-greeting/1.0.3', await packed(GREETING, '1.0.3'), { token })).status, 201, 'the unit given back once is taken again');
  const over = await put(second.url, 'publish-greeting/1.0.4', await packed(GREETING, '1.0.4'), { token });
  t.same([over.status, over.body.details], [429, { quota: 'versionsPerComponent', limit: 2, used: 2 }], 'and only once: 2 live versions, at the limit');
  const unpublishes = (await admin(first.url, 'GET', 'audit?component=publish-greeting')).body.entries.filter((entry: { action: string }) => entry.action === 'unpublish');
  t.equal(unpublishes.length, 1, 'the audit log lists one unpublish');
}

t.test('two replicas over one file system: racing unpublishes of one version give one quota unit back', async (t) => {
  const first = await startRegistry(t, [], withAdmin);
  const second = await replicaOver(t, first.storagePath, withAdmin);
  await racingUnpublishes(t, first, second);
});

t.test('two replicas over one S3 store: racing unpublishes of one version give one quota unit back', async (t) => {
  const server = await startS3Server(t);
  const options = { prefix: 'racing-unpublish', endpoint: server.endpoint, storage: { settleMs: 100 }, configure: withAdmin };
  await racingUnpublishes(t, await startS3Registry(t, options), await startS3Registry(t, options));
});
