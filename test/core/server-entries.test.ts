import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

const ID = /id="[0-9a-f-]{36}"/;
const UNRENDERED = { accept: 'application/vnd.oc.unrendered+json' };
const script = (name: string) =>
  `<script>window.oc=window.oc||{};oc.renderedComponents=oc.renderedComponents||{};oc.renderedComponents["${name}"]="1.0.0";</script>`;

t.test('the legacy server.js and the modern entry both run in the sandbox', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-legacy'), fixture('core-modes')], (config) => {
    config.limits.sandboxHosts = 1;
    config.env = { name: 'core-test-env' };
  });
  const hashOf = async (name: string): Promise<string> => (await request(`${url}${name}/1.0.0/~info`)).body.oc.files.template.hashKey;

  t.test('legacy data(context, callback) with a view model', async (t) => {
    const href = `${url}core-legacy?name=Ada&outcome=model`;
    const { status, body } = await request(`${url}core-legacy?name=Ada`);
    t.equal(status, 200);
    t.same(
      { ...body, html: body.html.replace(ID, 'id="ID"') },
      {
        href,
        name: 'core-legacy',
        version: '1.0.0',
        requestVersion: '',
        html:
          `<oc-component href="${href.replace(/&/g, '&amp;')}" data-hash="${await hashOf('core-legacy')}" id="ID" data-name="core-legacy" data-rendered="true" data-version="1.0.0">` +
          `<p class="legacy">Hello, Ada! (core-test-env)</p>${script('core-legacy')}</oc-component>`,
        type: 'oc-component',
        renderMode: 'rendered',
        baseUrl: url,
      },
    );
    const unrendered = await request(`${url}core-legacy?name=Ada`, { headers: UNRENDERED });
    t.same(unrendered.body.data, { greeting: 'Hello, Ada!', env: 'core-test-env' });
  });

  t.test('legacy callback(error) is GENERIC_ERROR 500', async (t) => {
    const { status, body } = await request(`${url}core-legacy/1.0.0?outcome=error`);
    t.equal(status, 500);
    t.same(body, { code: 'GENERIC_ERROR', error: 'Component "core-legacy" failed: The legacy data failed', name: 'core-legacy', requestVersion: '1.0.0' });
  });

  t.test('legacy callback with no model renders the wrapper and render info around empty content', async (t) => {
    const href = `${url}core-legacy?outcome=nothing&name=World`;
    const { status, body } = await request(`${url}core-legacy?outcome=nothing`);
    t.equal(status, 200);
    t.equal(
      body.html.replace(ID, 'id="ID"'),
      `<oc-component href="${href.replace(/&/g, '&amp;')}" data-hash="${await hashOf('core-legacy')}" id="ID" data-name="core-legacy" data-rendered="true" data-version="1.0.0">` +
        `${script('core-legacy')}</oc-component>`,
    );
  });

  t.test('the modern entry: withParameters default and handler', async (t) => {
    const { status, body } = await request(`${url}core-modes`);
    t.equal(status, 200);
    t.equal(body.href, `${url}core-modes?name=World`);
    t.equal(
      body.html.replace(ID, 'id="ID"'),
      `<oc-component href="${url}core-modes?name=World" data-hash="${await hashOf('core-modes')}" id="ID" data-name="core-modes" data-rendered="true" data-version="1.0.0">` +
        `<p class="greeting">Hello, World!</p>${script('core-modes')}</oc-component>`,
    );
  });
});
