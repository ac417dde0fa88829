import { readFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

const PUBLISHED = ['1.0.0', '1.2.3', '1.2.5', '1.3.0', '2.0.0', '2.1.0-beta.1'];

t.test('GET /:name/~info and /:name/:version/~info', async (t) => {
  // Published in a shuffled order: allVersions is still ascending.
  const dirs = ['2.0.0', '1.0.0', '2.1.0-beta.1', '1.3.0', '1.2.5', '1.2.3'].map((v) => fixture(`core-versions-${v}`));
  const { url, storagePath } = await startRegistry(t, dirs, (config) => {
    config.limits.sandboxHosts = 1;
  });
  const stored = async (version: string): Promise<object> =>
    JSON.parse(await readFile(path.join(storagePath, 'components', 'core-versions', version, 'package.json'), 'utf8'));

  const latest = await request(`${url}core-versions/~info`);
  t.equal(latest.status, 200);
  t.same(latest.body, { ...(await stored('2.0.0')), allVersions: PUBLISHED, requestVersion: '' });

  const range = await request(`${url}core-versions/1.2.x/~info`);
  t.equal(range.status, 200);
  t.same(range.body, { ...(await stored('1.2.5')), allVersions: PUBLISHED, requestVersion: '1.2.x' });

  const html = await request(`${url}core-versions/1.0.0/~info`, { headers: { accept: 'text/html' } });
  t.equal(html.status, 200);
  t.equal(html.headers.get('content-type'), 'text/html; charset=utf-8');
  t.match(html.text, '<h1>core-versions<span class="version">1.0.0</span>');

  const version = await request(`${url}core-versions/9.9.9/~info`);
  t.equal(version.status, 404);
  t.same(version.body, {
    code: 'NOT_FOUND',
    error: `Component "core-versions" has no version matching "9.9.9"; published versions: ${PUBLISHED.join(', ')}.`,
    name: 'core-versions',
    requestVersion: '9.9.9',
  });

  const component = await request(`${url}core-nothing/~info`);
  t.equal(component.status, 404);
  t.same(component.body, { code: 'NOT_FOUND', error: 'Component "core-nothing" is not published on this registry.', name: 'core-nothing', requestVersion: '' });
});
