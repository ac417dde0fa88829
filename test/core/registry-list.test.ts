import { readFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('GET / lists the published components', async (t) => {
  const dirs = ['2.0.0', '1.0.0', '2.1.0-beta.1'].map((v) => fixture(`core-versions-${v}`));
  const { url, storagePath } = await startRegistry(t, [...dirs, fixture('core-modes')], (config) => {
    config.limits.sandboxHosts = 1;
  });
  const dateOf = async (name: string, version: string) =>
    new Date((JSON.parse(await readFile(path.join(storagePath, 'components', name, version, 'package.json'), 'utf8')) as { oc: { date: number } }).oc.date).toISOString();

  const plain = await request(url);
  t.equal(plain.status, 200);
  t.same(plain.body, { href: url, type: 'oc-registry', components: [`${url}core-modes`, `${url}core-versions`] });

  const meta = await request(`${url}?meta=true`);
  t.equal(meta.status, 200);
  t.same(meta.body, {
    href: url,
    type: 'oc-registry',
    components: [
      {
        name: 'core-modes',
        version: '1.0.0',
        description: 'A greeting answered in rendered, unrendered and info modes.',
        state: '',
        publishDate: await dateOf('core-modes', '1.0.0'),
      },
      {
        name: 'core-versions',
        version: '2.0.0',
        description: 'One of several published versions, for version expressions.',
        state: 'active',
        publishDate: await dateOf('core-versions', '2.0.0'),
      },
    ],
  });
  t.match(meta.body.components[0].publishDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'publishDate is an ISO 8601 string, as OC gives it');
});
