import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

const ID = /id="[0-9a-f-]{36}"/;
const SCRIPT = '<script>window.oc=window.oc||{};oc.renderedComponents=oc.renderedComponents||{};oc.renderedComponents["core-modes"]="1.0.0";</script>';

t.test('rendered, unrendered and info modes', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-modes'), fixture('core-failing')], (config) => {
    config.limits.sandboxHosts = 1;
  });
  const info = await request(`${url}core-modes/1.0.0/~info`);
  const hashKey: string = info.body.oc.files.template.hashKey;
  t.match(hashKey, /^[0-9a-f]{40}$/);

  const renderedBody = (href: string, requestVersion: string) => ({
    href,
    name: 'core-modes',
    version: '1.0.0',
    requestVersion,
    html:
      `<oc-component href="${href}" data-hash="${hashKey}" id="ID" data-name="core-modes" data-rendered="true" data-version="1.0.0">` +
      `<p class="greeting">Hello, Ada!</p>${SCRIPT}</oc-component>`,
    type: 'oc-component',
    renderMode: 'rendered',
    baseUrl: url,
  });
  const unrenderedBody = (href: string, requestVersion: string) => ({
    href,
    name: 'core-modes',
    version: '1.0.0',
    requestVersion,
    data: { name: 'Ada' },
    template: { src: `${url}core-modes/1.0.0/static/template.js`, type: 'oc-template-es6', key: hashKey },
    type: 'oc-component',
    renderMode: 'unrendered',
    baseUrl: url,
  });
  const normalized = (body: { html: string }) => ({ ...body, html: body.html.replace(ID, 'id="ID"') });

  t.test('rendered: the full body, wrapper attributes in order, render info inside', async (t) => {
    for (const accept of [undefined, 'application/json', 'text/plain, */*']) {
      const { status, headers, body } = await request(`${url}core-modes?name=Ada`, accept ? { headers: { accept } } : {});
      t.equal(status, 200, `Accept ${accept ?? 'absent'}`);
      t.match(headers.get('content-type'), /^application\/json/);
      t.match(body.html, ID, 'the wrapper id is a uuid');
      t.same(normalized(body), renderedBody(`${url}core-modes?name=Ada`, ''));
    }
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) ids.add(ID.exec((await request(`${url}core-modes/1.0.0?name=Ada`)).body.html)![0]);
    t.equal(ids.size, 3, 'each render gets its own wrapper id');
  });

  t.test('unrendered: data and template reference, key equal to the descriptor hashKey', async (t) => {
    const { status, body } = await request(`${url}core-modes/1.x?name=Ada`, { headers: { accept: 'application/vnd.oc.unrendered+json' } });
    t.equal(status, 200);
    t.same(body, unrenderedBody(`${url}core-modes/1.x?name=Ada`, '1.x'));
  });

  t.test('Accept is parsed as a list with q-values', async (t) => {
    const unrendered = await request(`${url}core-modes?name=Ada`, {
      headers: { accept: 'text/html;q=0.9, Application/Vnd.OC.Unrendered+JSON; q=0.8, */*;q=0.1' },
    });
    t.same(unrendered.body, unrenderedBody(`${url}core-modes?name=Ada`, ''));

    const infoOnly = await request(`${url}core-modes/1.0.0`, { headers: { accept: 'application/json;q=1, application/vnd.oc.info+json;q=0.5' } });
    t.strictSame(infoOnly.body, { type: 'oc-component', version: '1.0.0', requestVersion: '1.0.0', name: 'core-modes' });

    // q=0 says "not this type": the answer is the rendered one.
    for (const accept of ['application/vnd.oc.unrendered+json;q=0', 'application/vnd.oc.info+json; q=0.000, text/html;q=0.5']) {
      const refused = await request(`${url}core-modes?name=Ada`, { headers: { accept } });
      t.equal(refused.status, 200, accept);
      t.equal(refused.body.renderMode, 'rendered', accept);
    }
  });

  t.test('info: exactly {type, version, requestVersion, name} and the server logic does not run', async (t) => {
    const accept = { accept: 'application/vnd.oc.info+json' };
    const failing = await request(`${url}core-failing`);
    t.equal(failing.status, 500, 'the handler throws when it runs');
    t.equal(failing.body.code, 'GENERIC_ERROR');

    const { status, body } = await request(`${url}core-failing/^1.0.0`, { headers: accept });
    t.equal(status, 200, 'the throwing handler did not run');
    t.strictSame(body, { type: 'oc-component', version: '1.0.0', requestVersion: '^1.0.0', name: 'core-failing' });

    const invalidParams = await request(`${url}core-failing?kind=unknown`, { headers: accept });
    t.equal(invalidParams.status, 200, 'info mode does not validate parameters either');

    const unknown = await request(`${url}core-nothing`, { headers: accept });
    t.equal(unknown.status, 404);
    t.same(unknown.body, { code: 'NOT_FOUND', error: 'Component "core-nothing" is not published on this registry.', name: 'core-nothing', requestVersion: '' });
  });

  t.test('an oc-client that cannot render the template type gets it rendered', async (t) => {
    const unrenderedAccept = 'application/vnd.oc.unrendered+json';
    const lacking = await request(`${url}core-modes?name=Ada`, {
      headers: { accept: unrenderedAccept, 'user-agent': 'oc-client-0.49.0/v20.0.0-linux-x64', templates: 'oc-template-react,4.0.0;oc-template-esm,1.0.0' },
    });
    t.equal(lacking.status, 200);
    t.same(normalized(lacking.body), renderedBody(`${url}core-modes?name=Ada`, ''), 'rendered on the server');

    const noTemplatesHeader = await request(`${url}core-modes?name=Ada`, { headers: { accept: unrenderedAccept, 'user-agent': 'oc-client-0.49.0' } });
    t.equal(noTemplatesHeader.body.renderMode, 'rendered', 'an oc-client that lists no template types renders nothing itself');

    const listing = await request(`${url}core-modes?name=Ada`, {
      headers: { accept: unrenderedAccept, 'user-agent': 'oc-client-0.49.0', templates: 'oc-template-react,4.0.0;oc-template-es6,1.0.0' },
    });
    t.same(listing.body, unrenderedBody(`${url}core-modes?name=Ada`, ''), 'a client that lists the type gets it unrendered');

    const notAClient = await request(`${url}core-modes?name=Ada`, {
      headers: { accept: unrenderedAccept, 'user-agent': 'curl/8.0', templates: 'oc-template-react,4.0.0' },
    });
    t.same(notAClient.body, unrenderedBody(`${url}core-modes?name=Ada`, ''), 'the rule applies to oc-clients only');
  });
});
