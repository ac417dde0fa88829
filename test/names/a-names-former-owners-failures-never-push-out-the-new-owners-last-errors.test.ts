import t from 'tap';
import { fixture, request, startRegistry, type TenantComponent } from '../helpers/start-registry';
import { lastErrorRows } from '../tail/tail-helpers';
import { LABS, SHOP, overlappingTenants } from './names-helpers';

const NAME = 'shop-labs-widget';
/** The thrower at `version`, published by `tenant`: a name the administrator moved from `labs` to `shop` holds both (decisions §15). */
const thrower = (tenant: string, version: string): TenantComponent => ({ dir: fixture('errors-thrower'), tenant, name: NAME, version });
const row = (version: string, message: string) => [version, '500', '<code>GENERIC_ERROR</code>', `Component &quot;${NAME}&quot; failed: ${message}`];
const pageOf = (url: string, token: string) => request(`${url}${NAME}/~info`, { headers: { accept: 'text/html', authorization: `Bearer ${token}` } });

/**
 * A component's page keeps its last 20 failures per front thread, each shown to the tenant whose
 * version failed (decisions §16). The ring was the name's: once it had moved, the former owner's live
 * version, failing 20 times, pushed every failure of the new owner's out of it, and the new owner saw
 * none of its own. Each owner of a name has a ring of its own.
 */
t.test("a moved name's former owner's failures never push the new owner's out of its last errors", async (t) => {
  const { url } = await startRegistry(t, [thrower('labs', '1.0.0'), thrower('shop', '2.0.0')], overlappingTenants);
  t.equal((await request(`${url}${NAME}/2.0.0?message=shop+failure`)).status, 500);
  for (let index = 1; index <= 25; index++) t.equal((await request(`${url}${NAME}/1.0.0?message=labs+failure+${index}`)).status, 500);

  const shop = await pageOf(url, SHOP);
  t.equal(shop.status, 200);
  t.same(lastErrorRows(shop.text), [row('2.0.0', 'shop failure')], "shop's failure is still on its page");
  const labs = await pageOf(url, LABS);
  t.equal(labs.status, 200);
  t.same(lastErrorRows(labs.text), Array.from({ length: 20 }, (_, index) => row('1.0.0', `labs failure ${25 - index}`)), "labs sees its newest 20, and only its own");
});
