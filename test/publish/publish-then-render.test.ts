import t from 'tap';
import { packTarball } from '../../src/packager/pack-tarball';
import { GREETING, packed, put, startPublishRegistry, withDescriptor } from './publish-helpers';
import { request } from '../helpers/start-registry';

const normalize = (html: string): string => html.replace(/ id="[0-9a-f-]{36}"/, ' id="ID"');

t.test('a published version is served at once, with who published it', async (t) => {
  const { url } = await startPublishRegistry(t);
  const before = Date.now();
  const published = await put(url, 'publish-greeting/1.0.0', await packed(GREETING));
  t.equal(published.status, 201);
  t.same(published.body, { ok: true, name: 'publish-greeting', version: '1.0.0' });

  const info = await request(`${url}publish-greeting/~info`);
  t.equal(info.status, 200);
  const rendered = await request(`${url}publish-greeting?name=Ada`);
  t.equal(rendered.status, 200);
  t.equal(rendered.body.version, '1.0.0');
  t.equal(
    normalize(rendered.body.html),
    `<oc-component href="${url}publish-greeting?name=Ada" data-hash="${info.body.oc.files.template.hashKey}" id="ID" data-name="publish-greeting" data-rendered="true" data-version="1.0.0">` +
      '<p class="greeting">Hello, Ada!</p>' +
      '<script>window.oc=window.oc||{};oc.renderedComponents=oc.renderedComponents||{};oc.renderedComponents["publish-greeting"]="1.0.0";</script></oc-component>',
  );

  t.equal(info.body.oc.publisher.tenant, 'greeters');
  t.ok(info.body.oc.publisher.date >= before && info.body.oc.publisher.date <= Date.now(), 'the publish date is now');
  t.same(info.body.allVersions, ['1.0.0']);
  const page = await request(`${url}publish-greeting/~info`, { headers: { accept: 'text/html' } });
  t.match(page.text, `<dt>Publisher</dt><dd>greeters</dd><dt>Published</dt><dd><time datetime="${new Date(info.body.oc.publisher.date).toISOString()}">`);

  const css = await request(`${url}publish-greeting/1.0.0/static/public/greeting.css`);
  t.equal(css.status, 200);
  t.equal(css.text, '.greeting{font-weight:700}\n');
});

t.test('a multipart upload with one file publishes too', async (t) => {
  const { url } = await startPublishRegistry(t);
  const form = new FormData();
  form.append('package', new Blob([await packed(GREETING)]), 'package.tar.gz');
  const published = await put(url, 'publish-greeting/1.0.0', form);
  t.equal(published.status, 201);
  t.same(published.body, { ok: true, name: 'publish-greeting', version: '1.0.0' });
  t.match((await request(`${url}publish-greeting/1.0.0?name=Bo`)).body.html, '<p class="greeting">Hello, Bo!</p>');
});

t.test('a client-supplied publisher is replaced by the token\'s tenant', async (t) => {
  const { url } = await startPublishRegistry(t);
  const files = await withDescriptor((descriptor) => {
    descriptor.oc.publisher = { tenant: 'someone-else', date: 0 };
  });
  t.equal((await put(url, 'publish-greeting/1.0.0', await packTarball(files))).status, 201);
  t.equal((await request(`${url}publish-greeting/~info`)).body.oc.publisher.tenant, 'greeters');
});
