import t from 'tap';
import { packagedFixture } from '../helpers/packaged-fixture';
import { packTarball } from '../../src/packager/pack-tarball';
import { fixture, request } from '../helpers/start-registry';
import { put, SHOP_TOKEN, startPublishRegistry } from '../publish/publish-helpers';

t.test('parameter examples that are numbers, booleans or objects are packaged, published and shown', async (t) => {
  const packaged = await packagedFixture(fixture('shop-numeric-example'));
  const { url } = await startPublishRegistry(t);
  const published = await put(url, 'shop-numeric-example/1.0.0', await packTarball(packaged.files), { token: SHOP_TOKEN });
  t.equal(published.status, 201);
  const info = await request(`${url}shop-numeric-example/~info`);
  t.strictSame(info.body.oc.parameters, {
    quantity: { type: 'number', example: 3, description: 'How many' },
    gift: { type: 'boolean', example: true },
    sku: { type: 'string', example: { catalog: 'spring', code: 42 } },
  });
});
