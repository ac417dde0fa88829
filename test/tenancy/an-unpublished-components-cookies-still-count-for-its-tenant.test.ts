import t from 'tap';
import { packTarball } from '../../src/packager/pack-tarball';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { unpublish } from '../lifecycle/lifecycle-helpers';
import { packagedFiles, publishTokens, put, SHOP_TOKEN, withDescriptor } from '../publish/publish-helpers';

/**
 * The shop's components together may keep 16 cookie names in the visitor's jar. The shop publishes
 * two crowding components, the visitor meets both (16 names), then the shop unpublishes one of
 * them within its window: its 8 cookies stay in the visitor's jar (they live for an hour), but the
 * registry no longer counts them as the shop's, since the catalog no longer has their component.
 * A third crowding component then adds 8 more names: 24 of one tenant's in the jar.
 */
const crowdAs = async (name: string) =>
  packTarball(await withDescriptor((descriptor) => Object.assign(descriptor, { name, version: '1.0.0' }), await packagedFiles(fixture('hostile-cookie-crowd'))));

const jarOf = (setCookies: string[]): string[] => setCookies.map((cookie) => cookie.slice(0, cookie.indexOf(';')));

t.test("an unpublished component's cookies still in the jar count against its tenant's 16 names", async (t) => {
  const { url } = await startRegistry(t, [ofTenant('beta', fixture('tenant-beta'))], (config) => {
    config.limits.sandboxHosts = 1;
    config.publishTokens = publishTokens();
  });
  for (const name of ['shop-crowd-a', 'shop-crowd-b', 'shop-crowd-c']) {
    t.equal((await put(url, `${name}/1.0.0`, await crowdAs(name), { token: SHOP_TOKEN })).status, 201, `${name} published`);
  }

  const jar: string[] = ['oc.tenant-beta.session=beta-secret'];
  for (const name of ['shop-crowd-a', 'shop-crowd-b']) {
    const answer = await request(`${url}${name}`, { headers: { cookie: jar.join('; ') } });
    t.equal(answer.status, 200);
    t.equal(answer.body.html, '<p>kept 8</p>', `${name} keeps its 8 names`);
    jar.push(...jarOf(answer.headers.getSetCookie()));
  }
  // Control: with the shop's 16 names held, a third of its components keeps nothing.
  const full = await request(`${url}shop-crowd-c`, { headers: { cookie: jar.join('; ') } });
  t.equal(full.body.html, '<p>kept 0</p>', 'at 16 names the shop keeps no more');

  // The shop unpublishes shop-crowd-a; its cookies stay in the visitor's jar.
  t.equal((await unpublish(url, 'shop-crowd-a/1.0.0', SHOP_TOKEN)).status, 200, 'unpublished by its own tenant');
  t.equal(jar.filter((cookie) => cookie.startsWith('oc.shop-crowd-a.')).length, 8, "the visitor's jar still holds shop-crowd-a's 8 cookies");

  const again = await request(`${url}shop-crowd-c`, { headers: { cookie: jar.join('; ') } });
  t.equal(again.status, 200);
  const added = jarOf(again.headers.getSetCookie());
  const shopNames = jar.filter((cookie) => cookie.startsWith('oc.shop-')).length + added.length;
  t.equal(again.body.html, '<p>kept 0</p>', "the shop's cookies of an unpublished component still count: no new name");
  t.ok(shopNames <= 16, `the jar holds at most 16 names of the shop's (holds ${shopNames})`);

  // The bystander still reads its session.
  const beta = await request(`${url}tenant-beta`, { headers: { cookie: [...jar, ...added].join('; ') } });
  t.equal(beta.body.html, '<p>session=beta-secret</p>');
});
