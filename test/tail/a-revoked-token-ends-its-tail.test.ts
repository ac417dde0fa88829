import t from 'tap';
import { startRegistry } from '../helpers/start-registry';
import { admin, tenantWithToken, withAdmin } from '../tenants/admin-helpers';
import { openTail } from './tail-helpers';

t.test("a revoked token's open tail ends, saying why, and the token opens no other", async (t) => {
  const { url } = await startRegistry(t, [], withAdmin);
  const { id, token } = await tenantWithToken(url, { name: 'shop', components: ['shop-*'] });
  const tail = await openTail(url, token, '?pattern=shop-*');
  t.teardown(() => tail.close());
  t.equal(tail.status, 200);
  t.same(tail.events[0], { type: 'open', data: { tenant: 'shop', pattern: 'shop-*', replica: url } });

  const revoked = await admin(url, 'DELETE', `tokens/${id}`);
  t.equal(revoked.status, 200);
  await tail.ended;
  t.same(tail.events.at(-1), { type: 'end', data: { code: 'UNAUTHORIZED', error: 'The token of this tail was revoked.' } });

  const again = await openTail(url, token);
  t.equal(again.status, 401);
  t.same(again.body, { code: 'UNAUTHORIZED', error: "The token is neither a live publish token of a tenant nor the administrator's.", name: '', requestVersion: '' });
});
