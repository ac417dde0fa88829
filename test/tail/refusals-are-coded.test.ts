import t from 'tap';
import { startRegistry } from '../helpers/start-registry';
import { ADMIN_TOKEN, LABS_TOKEN, openTail, SHOP_TOKEN, twoTenants, TWO_TENANTS_COMPONENTS } from './tail-helpers';

const refusal = (code: string, error: string, details?: Record<string, unknown>) => ({ code, error, name: '', requestVersion: '', ...(details && { details }) });
const parameter = (name: string, problem: string) => refusal('NOT_VALID_REQUEST', `Query parameter "${name}" ${problem}.`, { parameters: [{ name, problem }] });

t.test('every refusal of a tail is coded, before any stream opens', async (t) => {
  const { url } = await startRegistry(t, TWO_TENANTS_COMPONENTS, (config) => {
    twoTenants(config);
    config.limits.tailsPerTenant = 2;
  });
  const cases: Array<[string | undefined, string, number, unknown]> = [
    [undefined, '', 401, refusal('UNAUTHORIZED', 'A tail needs a token: send "Authorization: Bearer <token>" with one of your tenant\'s publish tokens.')],
    ['no-such-token', '', 401, refusal('UNAUTHORIZED', "The token is neither a live publish token of a tenant nor the administrator's.")],
    [
      SHOP_TOKEN,
      '?pattern=labs-*',
      403,
      refusal('FORBIDDEN', 'Tenant "shop" may not watch "labs-*": its components are named shop-*.', { pattern: 'labs-*', allowed: ['shop-*'] }),
    ],
    [SHOP_TOKEN, '?pattern=*', 403, refusal('FORBIDDEN', 'Tenant "shop" may not watch "*": its components are named shop-*.', { pattern: '*', allowed: ['shop-*'] })],
    [LABS_TOKEN, '?pattern=shop-logger', 403, refusal('FORBIDDEN', 'Tenant "labs" may not watch "shop-logger": its components are named labs-*.', { pattern: 'shop-logger', allowed: ['labs-*'] })],
    [SHOP_TOKEN, '?pattern=shop%20logger', 400, parameter('pattern', 'must be a component name, `*` matching any run of characters')],
    [SHOP_TOKEN, '?sample=0', 400, parameter('sample', 'must be a number greater than 0 and at most 1')],
    [SHOP_TOKEN, '?sample=1.5', 400, parameter('sample', 'must be a number greater than 0 and at most 1')],
    [SHOP_TOKEN, '?local=yes', 400, parameter('local', 'must be true or false')],
    [SHOP_TOKEN, '?sample=often', 400, parameter('sample', 'must be a number greater than 0 and at most 1')],
    [SHOP_TOKEN, '?status=5xy', 400, parameter('status', 'must be HTTP statuses (500) or classes (5xx), comma-separated')],
    [SHOP_TOKEN, '?status=600', 400, parameter('status', 'must be HTTP statuses (500) or classes (5xx), comma-separated')],
    [SHOP_TOKEN, '?outcome=ok,BROKEN', 400, parameter('outcome', 'must be ok, error or error codes of docs/reference/errors.md, comma-separated')],
    [SHOP_TOKEN, '?statuss=500', 400, parameter('statuss', 'is not a filter of a tail (pattern, outcome, status, sample, local)')],
    [SHOP_TOKEN, '?status=500&status=404', 400, parameter('status', 'is given more than once')],
  ];
  for (const [token, query, status, body] of cases) {
    const tail = await openTail(url, token, query);
    t.equal(tail.status, status, `${token ?? 'no token'} ${query}`);
    t.same(tail.body, body, `${token ?? 'no token'} ${query}`);
  }
});

t.test("a tenant's tails are bounded; the administrator's are counted apart; a closed tail frees its place", async (t) => {
  const { url } = await startRegistry(t, TWO_TENANTS_COMPONENTS, (config) => {
    twoTenants(config);
    config.limits.tailsPerTenant = 2;
  });
  const open = [await openTail(url, SHOP_TOKEN), await openTail(url, SHOP_TOKEN, '?pattern=shop-logger')];
  t.teardown(() => open.forEach((tail) => tail.close()));
  t.same(open.map((tail) => tail.status), [200, 200]);
  const third = await openTail(url, SHOP_TOKEN);
  t.equal(third.status, 429);
  t.same(third.body, refusal('TOO_MANY_TAILS', 'Tenant "shop" has 2 tails open on this replica, the most allowed; close one first.', { limit: 2 }));
  const others = [await openTail(url, LABS_TOKEN), await openTail(url, ADMIN_TOKEN)];
  t.teardown(() => others.forEach((tail) => tail.close()));
  t.same(others.map((tail) => tail.status), [200, 200], "another tenant's and the administrator's tails are not the shop's");

  open[0]!.close();
  await open[0]!.ended;
  // The registry hears of the closed connection soon after; until then the place is still taken.
  let again = await openTail(url, SHOP_TOKEN);
  while (again.status === 429) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    again = await openTail(url, SHOP_TOKEN);
  }
  t.teardown(() => again.close());
  t.equal(again.status, 200);
});
