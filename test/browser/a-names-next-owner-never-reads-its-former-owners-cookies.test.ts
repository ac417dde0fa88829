import t from 'tap';
import { startRegistry } from '../helpers/start-registry';
import { admin } from '../tenants/admin-helpers';
import { put } from '../publish/publish-helpers';
import { COOKIE_KEEPER, LABS, SHOP, overlappingTenants, packedAs } from '../names/names-helpers';
import { launchChromium, openPage } from './chromium';

/**
 * `labs` owns `shop-labs-session` and its code keeps a session cookie in visitors' browsers (up to
 * a week). The administrator moves the name to `shop`, which publishes its own code under it: that
 * code never reads the session `labs`' code left in the jar (decisions §15). Each owner's cookies
 * are scoped by the generation of the name's claim its versions were published under; `labs`' own
 * version, still live, keeps reading its own.
 */
t.test("a name's next owner never reads the cookies its former owner's code left in the visitor's browser", async (t) => {
  const { url } = await startRegistry(t, [], overlappingTenants);
  const name = 'shop-labs-session';
  t.equal((await put(url, `${name}/1.0.0`, await packedAs(COOKIE_KEEPER, name, '1.0.0'), { token: LABS })).status, 201);

  const browser = await launchChromium(t);
  const { page, pageErrors } = await openPage(browser);
  const html = async (path: string): Promise<string> => {
    const answer = await page.goto(`${url}${path}`);
    t.equal(answer?.status(), 200, path);
    return (await answer!.json()).html as string;
  };

  await html(`${name}?login=true`);
  t.match(await html(name), 'session=beta-secret', "labs' code reads the session it set");
  const jar = (await page.context().cookies()).map((cookie) => cookie.name);
  t.same(jar, [`oc.${name}.session`]);

  t.equal((await admin(url, 'PUT', `names/${name}`, { tenant: 'shop' })).status, 200);
  t.equal((await put(url, `${name}/2.0.0`, await packedAs(COOKIE_KEEPER, name, '2.0.0'), { token: SHOP })).status, 201);

  t.match(await html(name), '(none)', "shop's code, now latest, is given none of labs' cookies");
  t.match(await html(`${name}/1.0.0`), 'session=beta-secret', "labs' version still reads its own");
  await html(`${name}?login=true`);
  const both = (await page.context().cookies()).map((cookie) => cookie.name).sort();
  t.same(both, [`oc.${name}.session`, `oc.${name}~2.session`], "shop's session is a cookie of its own");
  t.match(await html(name), /session=beta-secret/, "shop's code reads the session it set");
  t.match(await html(`${name}/1.0.0`), 'session=beta-secret', 'and each reads only its own: one cookie named session each');
  t.notMatch(await html(name), /;/, "shop's code is given one cookie, its own");
  t.same(pageErrors, []);
});
