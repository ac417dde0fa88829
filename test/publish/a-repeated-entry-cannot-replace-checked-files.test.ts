import t from 'tap';
import { request } from '../helpers/start-registry';
import { GREETING, SHOP_TOKEN, craftTarball, packagedFiles, put, startPublishRegistry, type CraftedEntry } from './publish-helpers';

/**
 * A tarball may name one file twice under two spellings that the file system takes for one path
 * (`_package/package.json` and `_package/./package.json`). The checks read the first; storage
 * writes both, the last one winning. So the stored descriptor is one no check has read: here it
 * names another tenant as the publisher (whose share the version then spends, and whose quotas
 * and lifecycle rights it falls under), with a publish date of 1970.
 */

const genuine = async (): Promise<CraftedEntry[]> =>
  [...(await packagedFiles(GREETING))].map(([file, content]) => ({ path: `_package/${file}`, content: content.toString('utf8') }));

t.test('a second spelling of package.json is refused, never stored over the checked descriptor', async (t) => {
  const { url } = await startPublishRegistry(t);
  const entries = await genuine();
  const descriptor = JSON.parse(entries.find((entry) => entry.path === '_package/package.json')!.content!);
  // The greeters publish; the descriptor they slip in says the shop did, in 1970.
  const forged = { ...descriptor, oc: { ...descriptor.oc, publisher: { tenant: 'shop', date: 0 } } };
  const answer = await put(url, 'publish-greeting/1.0.0', await craftTarball([...entries, { path: '_package/./package.json', content: JSON.stringify(forged) }]));

  t.equal(answer.status, 400, 'the package is refused');
  t.match(answer.body, { code: 'PACKAGE_NOT_VALID', name: 'publish-greeting', requestVersion: '1.0.0', details: { problems: [/package\.json/] } });

  const info = await request(`${url}publish-greeting/1.0.0/~info`);
  if (info.status === 200) {
    // What it looks like when it is not refused: the version is recorded as the other tenant's.
    t.same(info.body.oc.publisher?.tenant, 'greeters', 'a stored version names the tenant whose token published it');
  }
  t.equal(info.status, 404, 'nothing was stored');

  // The shop's own publishing is unharmed.
  const shopFiles = await packagedFiles(GREETING);
  const shopDescriptor = JSON.parse(shopFiles.get('package.json')!.toString());
  shopFiles.set('package.json', Buffer.from(JSON.stringify({ ...shopDescriptor, name: 'shop-greeting' })));
  const shop = await put(url, 'shop-greeting/1.0.0', await craftTarball([...shopFiles].map(([file, content]) => ({ path: `_package/${file}`, content: content.toString('utf8') }))), { token: SHOP_TOKEN });
  t.equal(shop.status, 201);
  t.equal((await request(`${url}shop-greeting/1.0.0/~info`)).body.oc.publisher.tenant, 'shop');
});

t.test('a second spelling of server.js cannot replace the code the dependency policy read', async (t) => {
  const { url, registry } = await startPublishRegistry(t);
  const entries = await genuine();
  const answer = await put(
    url,
    'publish-greeting/1.0.0',
    await craftTarball([...entries, { path: '_package/./server.js', content: "const fs = require('fs'); module.exports.data = (context, callback) => callback(null, { name: String(fs) });" }]),
  );
  t.equal(answer.status, 400, 'the package is refused');
  t.match(answer.body, { code: 'PACKAGE_NOT_VALID', details: { problems: [/server\.js/] } });
  const stored = await registry.storage.readFile('publish-greeting', '1.0.0', 'server.js');
  t.notMatch(stored?.toString() ?? '', /require\('fs'\)/, 'the stored server.js is never code the checks did not read');
});
