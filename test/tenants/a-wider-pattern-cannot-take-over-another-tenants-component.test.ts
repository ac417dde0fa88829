import t from 'tap';
import { hashToken } from '../../src/publish/tenant-tokens';
import { request } from '../helpers/start-registry';
import { GREETING, SHOP_TOKEN, packagedFiles, put, startPublishRegistry } from '../publish/publish-helpers';
import { packTarball } from '../../src/packager/pack-tarball';

/**
 * Name patterns are prefixes: the shop's `shop-*` also covers `shop-labs-*`, the names of the
 * shop-labs team. Every version belongs to the tenant whose token published it (decisions §13), so
 * the shop cannot unpublish or deprecate the labs' versions, but it can publish the next version
 * of the labs' component: `latest`, `1.x` and `^1.0.0` then run the shop's code for every page
 * that embeds the labs' component, under the labs' name.
 */

const LABS_TOKEN = 'shop-labs-secret-token';

async function packageOf(name: string, version: string, marker: string): Promise<Buffer> {
  const files = await packagedFiles(GREETING, version);
  const descriptor = JSON.parse(files.get('package.json')!.toString());
  files.set('package.json', Buffer.from(JSON.stringify({ ...descriptor, name, description: marker })));
  return packTarball(files);
}

t.test("a tenant whose pattern also covers another tenant's component cannot publish a version of it", async (t) => {
  const { url } = await startPublishRegistry(t, (config) => {
    config.publishTokens.push({ tenant: 'shop-labs', sha256: hashToken(LABS_TOKEN), components: ['shop-labs-*'] });
  });
  t.equal((await put(url, 'shop-labs-widget/1.0.0', await packageOf('shop-labs-widget', '1.0.0', 'the labs widget'), { token: LABS_TOKEN })).status, 201);

  // The shop cannot change the labs' version's lifecycle ...
  const unpublish = await request(`${url}shop-labs-widget/1.0.0`, { method: 'DELETE', headers: { authorization: `Bearer ${SHOP_TOKEN}` } });
  t.equal(unpublish.status, 403, 'unpublish is refused');

  // ... and must not be able to put its own code behind the labs' name either.
  const takeover = await put(url, 'shop-labs-widget/1.0.1', await packageOf('shop-labs-widget', '1.0.1', 'the shop took it'), { token: SHOP_TOKEN });
  t.equal(takeover.status, 403, 'a new version of the labs component by the shop is refused');
  t.match(takeover.body, { code: 'FORBIDDEN', name: 'shop-labs-widget', requestVersion: '1.0.1', error: /shop-labs/ });

  const latest = await request(`${url}shop-labs-widget/~info`);
  t.equal(latest.body.version, '1.0.0', 'latest is still the labs version');
  t.equal(latest.body.oc.publisher.tenant, 'shop-labs', "latest is the labs' own");
  const rendered = await request(`${url}shop-labs-widget/1.x?name=Ada`);
  t.equal(rendered.body.version, '1.0.0', "1.x resolves to the labs' version");

  // The labs keep publishing their own component.
  t.equal((await put(url, 'shop-labs-widget/1.1.0', await packageOf('shop-labs-widget', '1.1.0', 'the labs widget'), { token: LABS_TOKEN })).status, 201);
  // And the shop keeps its own names.
  t.equal((await put(url, 'shop-cart/1.0.0', await packageOf('shop-cart', '1.0.0', 'the cart'), { token: SHOP_TOKEN })).status, 201);
});
