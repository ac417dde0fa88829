import t from 'tap';
import { request } from '../helpers/start-registry';
import { publishFixture, startTemplatesRegistry, withFixedId } from './publish-fixture';

/** What every server render of a hydrating type ends with: the script that asks the browser client to hydrate the markup before it. */
function hydrationScript(url: string, name: string, type: string, key: string, mode: string, model: Record<string, unknown>): string {
  const staticPath = `${url}${name}/1.0.0/static/`;
  const props = { ...model, _staticPath: staticPath, _baseUrl: url, _componentName: name, _componentVersion: '1.0.0' };
  const unit = JSON.stringify({ type, key, src: `${staticPath}template.js`, mode, props });
  return `<script>(function(s){var oc=window.oc=window.oc||{};(oc.cmd=oc.cmd||[]).push(function(oc){oc.hydrate(s.previousElementSibling,${unit})})})(document.currentScript)</script>`;
}

function wrapped(url: string, name: string, query: string, key: string, content: string): Record<string, unknown> {
  const href = `${url}${name}?${query}`;
  return {
    href,
    name,
    version: '1.0.0',
    requestVersion: '',
    html:
      `<oc-component href="${href.replace('&', '&amp;')}" data-hash="${key}" id="ID" data-name="${name}" data-rendered="true" data-version="1.0.0">${content}` +
      `<script>window.oc=window.oc||{};oc.renderedComponents=oc.renderedComponents||{};oc.renderedComponents["${name}"]="1.0.0";</script></oc-component>`,
    type: 'oc-component',
    renderMode: 'rendered',
    baseUrl: url,
  };
}

async function rendered(url: string, path: string) {
  const { status, body } = await request(`${url}${path}`);
  return { status, body: { ...body, html: withFixedId(body.html) } };
}

t.test('each template type is packaged, published and rendered on the server with its text', async (t) => {
  const { url } = await startTemplatesRegistry(t);

  t.test('oc-template-esm: Preact renders the function component, with the data to hydrate it', async (t) => {
    const name = 'templates-esm-counter';
    const key = await publishFixture(url, name);
    const markup = '<section class="counter"><p>Hello, Ada!</p><button type="button">Clicked 2 times</button></section>';
    t.same(await rendered(url, `${name}?name=Ada&start=2`), {
      status: 200,
      body: wrapped(url, name, 'name=Ada&start=2', key, `<div data-oc-root>${markup}</div>` + hydrationScript(url, name, 'oc-template-esm', key, 'hydrate', { name: 'Ada', start: 2 })),
    });
  });

  t.test('oc-template-react: react-dom/server renders the component in the sandbox', async (t) => {
    const name = 'templates-react-counter';
    const key = await publishFixture(url, name);
    const markup = '<section class="counter"><p>Hello, <!-- -->Ada<!-- -->!</p><button type="button">Clicked <!-- -->2<!-- --> times</button></section>';
    t.same(await rendered(url, `${name}?name=Ada&start=2`), {
      status: 200,
      body: wrapped(url, name, 'name=Ada&start=2', key, `<div data-oc-root>${markup}</div>` + hydrationScript(url, name, 'oc-template-react', key, 'hydrate', { name: 'Ada', start: 2 })),
    });
  });

  t.test('oc-template-handlebars: the precompiled view renders with the legacy server.js model, escaping as handlebars does', async (t) => {
    const name = 'templates-handlebars-greeting';
    const key = await publishFixture(url, name);
    const markup = '<div class="greeting">\n  <p>Hello, Ada!</p>\n  <ul><li>apple</li><li>pear</li></ul>\n  <strong>&lt;b&gt;escaped&lt;/b&gt;</strong>\n</div>\n';
    t.same(await rendered(url, `${name}?name=Ada`), { status: 200, body: wrapped(url, name, 'name=Ada', key, markup) });
  });

  t.test("OC's esm form: the server renders the element the browser mounts it into", async (t) => {
    const name = 'templates-esm-oc-mount';
    const key = await publishFixture(url, name);
    t.same(await rendered(url, `${name}?name=Ada`), {
      status: 200,
      body: wrapped(url, name, 'name=Ada', key, '<div data-oc-root></div>' + hydrationScript(url, name, 'oc-template-esm', key, 'mount', { name: 'Ada' })),
    });
  });
});

t.test('props in the hydration script cannot end it: <, > and & are escaped', async (t) => {
  const { url } = await startTemplatesRegistry(t);
  await publishFixture(url, 'templates-esm-counter');
  const { body } = await request(`${url}templates-esm-counter?name=${encodeURIComponent('</script><script>alert(1)</script>&')}`);
  t.match(body.html, '<p>Hello, &lt;/script>&lt;script>alert(1)&lt;/script>&amp;!</p>', 'the markup escapes as Preact does');
  t.match(body.html, '"name":"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\\u0026"', 'the script holds the name escaped');
  t.equal(body.html.split('</script>').length, 3, 'the hydration script and the render-info script end where they should');
});

t.test('an older OC component naming its type "handlebars" packages as oc-template-handlebars and renders', async (t) => {
  const { url } = await startTemplatesRegistry(t);
  const name = 'templates-handlebars-legacy';
  const key = await publishFixture(url, name);
  t.equal((await request(`${url}${name}/~info`)).body.oc.files.template.type, 'oc-template-handlebars');
  t.same(await rendered(url, `${name}?city=Porto`), { status: 200, body: wrapped(url, name, 'city=Porto', key, '<p>It is noon in Porto.</p>\n') });
});

t.test("an esm view written with React's names renders with Preact's compatibility layer", async (t) => {
  const { url } = await startTemplatesRegistry(t);
  const name = 'templates-esm-react-names';
  const key = await publishFixture(url, name);
  const { status, body } = await request(`${url}${name}`);
  t.equal(status, 200);
  t.equal(body.html, '<div data-oc-root><p class="static">Static templates-esm-react-names</p></div>' + hydrationScript(url, name, 'oc-template-esm', key, 'hydrate', {}));
});
