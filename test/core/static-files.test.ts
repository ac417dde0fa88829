import { readFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

const IMMUTABLE = 'public, max-age=31536000, immutable';

t.test('static files: content, content type, caching, template.js, missing files', async (t) => {
  const { url, storagePath } = await startRegistry(t, [fixture('core-static')], (config) => {
    config.limits.sandboxHosts = 1;
  });
  const source = (file: string) => readFile(path.join(fixture('core-static'), file));

  t.test('declared static files are served with their content type', async (t) => {
    const cases: Array<[string, string]> = [
      ['public/style.css', 'text/css; charset=utf-8'],
      ['public/app.js', 'text/javascript; charset=utf-8'],
      ['public/img/logo.svg', 'image/svg+xml'],
      ['public/img/pixel.png', 'image/png'],
    ];
    for (const [file, type] of cases) {
      const response = await fetch(`${url}core-static/1.0.0/static/${file}`);
      t.equal(response.status, 200, file);
      t.equal(response.headers.get('content-type'), type, `${file} content type`);
      t.same(Buffer.from(await response.arrayBuffer()), await source(file), `${file} content`);
    }
  });

  t.test('template.js is served; it is the compiled view registered under its key', async (t) => {
    const info = await request(`${url}core-static/1.0.0/~info`);
    const key: string = info.body.oc.files.template.hashKey;
    const response = await fetch(`${url}core-static/1.0.0/static/template.js`);
    t.equal(response.status, 200);
    t.equal(response.headers.get('content-type'), 'text/javascript; charset=utf-8');
    const text = await response.text();
    t.equal(text, await readFile(path.join(storagePath, 'components', 'core-static', '1.0.0', 'template.js'), 'utf8'));
    t.ok(text.startsWith(`var oc=oc||{};oc.components=oc.components||{};oc.components["${key}"]=`), 'registers the view under oc.components[key]');
  });

  t.test('an exact version is cached as immutable; a range or latest is not', async (t) => {
    const exact = await fetch(`${url}core-static/1.0.0/static/public/style.css`);
    t.equal(exact.headers.get('cache-control'), IMMUTABLE);
    for (const expression of ['1.x', '^1.0.0', '1', 'latest']) {
      const response = await fetch(`${url}core-static/${expression}/static/public/style.css`);
      t.equal(response.status, 200, `${expression} resolves`);
      t.equal(response.headers.get('cache-control'), null, `${expression} is not cached as immutable`);
      t.same(Buffer.from(await response.arrayBuffer()), await source('public/style.css'));
    }
  });

  t.test('a missing file, version or component is 404 NOT_FOUND', async (t) => {
    const missing = await request(`${url}core-static/1.0.0/static/public/missing.css`);
    t.equal(missing.status, 404);
    t.equal(missing.headers.get('cache-control'), null);
    t.same(missing.body, {
      code: 'NOT_FOUND',
      error: 'File "public/missing.css" is not a static file of core-static@1.0.0.',
      name: 'core-static',
      requestVersion: '1.0.0',
    });

    const folder = await request(`${url}core-static/1.0.0/static/public/img`);
    t.equal(folder.status, 404, 'a folder is not a file');
    t.equal(folder.body.code, 'NOT_FOUND');

    const version = await request(`${url}core-static/2.0.0/static/public/style.css`);
    t.equal(version.status, 404);
    t.same(version.body, {
      code: 'NOT_FOUND',
      error: 'Component "core-static" has no version matching "2.0.0"; published versions: 1.0.0.',
      name: 'core-static',
      requestVersion: '2.0.0',
    });

    const component = await request(`${url}core-nothing/1.0.0/static/public/style.css`);
    t.equal(component.status, 404);
    t.same(component.body, { code: 'NOT_FOUND', error: 'Component "core-nothing" is not published on this registry.', name: 'core-nothing', requestVersion: '1.0.0' });
  });

  t.test('ctx.staticPath points at the static route', async (t) => {
    const { body } = await request(`${url}core-static/1.0.0`, { headers: { accept: 'application/vnd.oc.unrendered+json' } });
    t.equal(body.data.stylesheet, `${url}core-static/1.0.0/static/public/style.css`);
    t.equal((await fetch(body.data.stylesheet)).status, 200);
  });
});
