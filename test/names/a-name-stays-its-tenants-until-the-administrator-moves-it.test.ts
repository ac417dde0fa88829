import t from 'tap';
import { request, startRegistry } from '../helpers/start-registry';
import { ADMIN_TOKEN, admin } from '../tenants/admin-helpers';
import { put } from '../publish/publish-helpers';
import { COOKIE_KEEPER, LABS, SHOP, nameTaken, overlappingTenants, packedAs } from './names-helpers';

const unpublish = (url: string, id: string, token: string) => request(`${url}${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });

/**
 * A name whose versions were all unpublished is still its tenant's (decisions §15): another tenant
 * whose pattern covers it is refused, the owner may publish it again; only the administrator moves
 * it (a transfer, or a release for the next claim), and the audit log says so.
 */
t.test('a name whose versions were all unpublished stays its tenant\'s', async (t) => {
  const { url } = await startRegistry(t, [], overlappingTenants);
  t.equal((await put(url, 'shop-labs-cart/1.0.0', await packedAs(COOKIE_KEEPER, 'shop-labs-cart', '1.0.0'), { token: LABS })).status, 201);
  t.equal((await unpublish(url, 'shop-labs-cart/1.0.0', LABS)).status, 200);
  t.equal((await request(`${url}shop-labs-cart`)).status, 404, 'no version is left to render');

  const taken = await put(url, 'shop-labs-cart/2.0.0', await packedAs(COOKIE_KEEPER, 'shop-labs-cart', '2.0.0'), { token: SHOP });
  t.same([taken.status, taken.body], [403, nameTaken('shop', 'shop-labs-cart', '2.0.0', 'labs')]);
  const dryRun = await put(url, 'shop-labs-cart/2.0.0', await packedAs(COOKIE_KEEPER, 'shop-labs-cart', '2.0.0'), { token: SHOP, query: '?dryRun=true' });
  t.same([dryRun.status, dryRun.body], [403, nameTaken('shop', 'shop-labs-cart', '2.0.0', 'labs')], 'a dry run answers as the publish would');
  t.equal((await put(url, 'shop-labs-cart/1.0.1', await packedAs(COOKIE_KEEPER, 'shop-labs-cart', '1.0.1'), { token: LABS })).status, 201, 'its owner publishes it again');
});

t.test('the administrator shows, transfers and releases a name; each move is audited', async (t) => {
  const { url } = await startRegistry(t, [], overlappingTenants);
  t.equal((await put(url, 'shop-labs-list/1.0.0', await packedAs(COOKIE_KEEPER, 'shop-labs-list', '1.0.0'), { token: LABS })).status, 201);

  const shown = await admin(url, 'GET', 'names/shop-labs-list');
  t.equal(shown.status, 200);
  t.match(shown.body, { name: 'shop-labs-list', owner: 'labs', generation: 1, versions: [{ version: '1.0.0', tenant: 'labs', generation: 1 }] });
  t.match(shown.body.history, [{ name: 'shop-labs-list', generation: 1, tenant: 'labs', action: 'claim', by: 'config:labs', version: '1.0.0' }]);

  const moved = await admin(url, 'PUT', 'names/shop-labs-list', { tenant: 'shop' });
  t.equal(moved.status, 200);
  t.match(moved.body, { owner: 'shop', generation: 2, history: [{ tenant: 'labs' }, { tenant: 'shop', action: 'transfer', by: 'admin' }] });
  const refused = await put(url, 'shop-labs-list/1.0.1', await packedAs(COOKIE_KEEPER, 'shop-labs-list', '1.0.1'), { token: LABS });
  t.same([refused.status, refused.body], [403, nameTaken('labs', 'shop-labs-list', '1.0.1', 'shop')], 'its former owner may no longer publish it');
  const formerUnpublish = await unpublish(url, 'shop-labs-list/1.0.0', LABS);
  t.same([formerUnpublish.status, formerUnpublish.body.error], [403, 'Tenant "labs" may not unpublish shop-labs-list@1.0.0: it belongs to tenant "shop".'], 'nor change its versions');
  t.equal((await put(url, 'shop-labs-list/2.0.0', await packedAs(COOKIE_KEEPER, 'shop-labs-list', '2.0.0'), { token: SHOP })).status, 201, 'its new owner publishes it');
  const again = await admin(url, 'PUT', 'names/shop-labs-list', { tenant: 'shop' });
  t.equal(again.body.generation, 2, 'moving a name to its owner writes nothing');

  const released = await admin(url, 'DELETE', 'names/shop-labs-list');
  t.match(released.body, { owner: null, generation: 3, history: [{}, {}, { tenant: null, action: 'release' }] });
  t.equal((await put(url, 'shop-labs-list/3.0.0', await packedAs(COOKIE_KEEPER, 'shop-labs-list', '3.0.0'), { token: LABS })).status, 201, 'a released name goes to the next tenant that publishes it');
  t.match((await admin(url, 'GET', 'names/shop-labs-list')).body, { owner: 'labs', generation: 4 });

  const audit = await admin(url, 'GET', 'audit?component=shop-labs-list');
  const moves = (await admin(url, 'GET', 'audit')).body.entries.filter((entry: { action: string }) => entry.action.startsWith('name-'));
  t.match(moves, [
    { action: 'name-transfer', tenant: 'shop', tokenId: 'admin', details: { name: 'shop-labs-list', from: 'labs', to: 'shop', generation: 2 } },
    { action: 'name-release', tenant: 'shop', tokenId: 'admin', details: { name: 'shop-labs-list', from: 'shop', generation: 3 } },
  ]);
  t.equal(moves.length, 2);
  t.equal(audit.status, 200);

  // Refusals, each coded.
  t.same((await admin(url, 'GET', 'names/never-published')).body, { code: 'NOT_FOUND', error: 'No tenant owns the name "never-published": it was never published.', name: '', requestVersion: '' });
  t.same((await admin(url, 'PUT', 'names/shop-labs-list', { tenant: 'nobody' })).body, { code: 'NOT_FOUND', error: 'No tenant is named "nobody"; create it first with POST /~admin/tenants.', name: '', requestVersion: '' });
  t.equal((await admin(url, 'GET', 'names/Not_A_Name')).status, 400);
  t.equal((await admin(url, 'DELETE', 'names/never-published')).status, 404);
  t.equal((await admin(url, 'PUT', 'names/shop-labs-list', { tenant: 'shop' }, SHOP)).status, 401, 'a tenant token moves nothing');
  for (const key of ['__proto__', 'constructor', 'prototype']) {
    const text = `{"tenant": "shop", "${key}": {"tenant": "labs"}}`;
    const poisoned = await request(`${url}~admin/names/shop-labs-list`, { method: 'PUT', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: text });
    t.same(
      [poisoned.status, poisoned.body],
      [400, { code: 'POST_BODY_NOT_VALID', error: `The request body is not valid: "${key}" is a reserved key.`, name: '', requestVersion: '', details: { parameters: [{ name: key, problem: 'is a reserved key' }] } }],
      key,
    );
  }
});
