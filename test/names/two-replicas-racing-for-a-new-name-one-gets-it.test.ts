import t, { type Test } from 'tap';
import { startS3Registry } from '../helpers/start-s3-registry';
import { startS3Server } from '../helpers/s3-server';
import { request, startRegistry } from '../helpers/start-registry';
import { put } from '../publish/publish-helpers';
import { COOKIE_KEEPER, LABS, SHOP, nameTaken, overlappingTenants, packedAs, replicaOver } from './names-helpers';

interface Replica {
  url: string;
  registry: { storage: { listVersions(name: string): Promise<string[]> }; catalog: { refresh(): Promise<void> } };
}

/**
 * `labs` publishes a new name through one replica and `shop` the same name through the other, at
 * once; neither replica polls (polling is off), so only the store can decide. Exactly one gets the
 * name; the other is refused and nothing of its upload is stored; both replicas then serve the
 * winner's version. Several names, so that either side wins some.
 */
async function race(t: Test, first: Replica, second: Replica): Promise<void> {
  const winners = new Set<string>();
  for (let round = 0; round < 4; round++) {
    const name = `shop-labs-race-${round}`;
    const [labs, shop] = await Promise.all([
      put(first.url, `${name}/1.0.0`, await packedAs(COOKIE_KEEPER, name, '1.0.0'), { token: LABS }),
      put(second.url, `${name}/2.0.0`, await packedAs(COOKIE_KEEPER, name, '2.0.0'), { token: SHOP }),
    ]);
    t.same([labs.status, shop.status].sort(), [201, 403], `${name}: one gets it (${labs.text} ${shop.text})`);
    const [winner, version, loser, lostVersion] = labs.status === 201 ? ['labs', '1.0.0', 'shop', '2.0.0'] : ['shop', '2.0.0', 'labs', '1.0.0'];
    winners.add(winner);
    t.same((labs.status === 201 ? shop : labs).body, nameTaken(loser, name, lostVersion, winner), `${name}: the loser is told who owns it`);
    t.same(await first.registry.storage.listVersions(name), [version], `${name}: only the winner's version is stored`);
    for (const replica of [first, second]) {
      // What the next poll does, once the race is decided.
      await replica.registry.catalog.refresh();
      const served = await request(`${replica.url}${name}/${version}`, { headers: { accept: 'application/vnd.oc.info+json' } });
      t.equal(served.status, 200, `${name}: served by each replica`);
      t.equal((await request(`${replica.url}${name}/${lostVersion}`)).status, 404, `${name}: the loser's version by none`);
    }
  }
  t.comment(`names won by: ${[...winners].join(', ')}`);
}

t.test('two replicas over one file system: of two tenants publishing a new name at once, exactly one gets it', async (t) => {
  const first = await startRegistry(t, [], overlappingTenants);
  const second = await replicaOver(t, first.storagePath, overlappingTenants);
  await race(t, first, second);
});

t.test('two replicas over one S3 store: of two tenants publishing a new name at once, exactly one gets it', async (t) => {
  const server = await startS3Server(t);
  const options = { prefix: 'name-race', endpoint: server.endpoint, storage: { settleMs: 100 }, configure: overlappingTenants };
  const first = await startS3Registry(t, options);
  const second = await startS3Registry(t, options);
  await race(t, first, second);
});
