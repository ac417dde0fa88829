import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('oc.container and oc.renderInfo shape the rendered html', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-container'), fixture('core-no-render-info')], (config) => {
    config.limits.sandboxHosts = 1;
  });

  const container = await request(`${url}core-container`);
  t.equal(container.status, 200);
  t.same(container.body, {
    href: `${url}core-container`,
    name: 'core-container',
    version: '1.0.0',
    requestVersion: '',
    html:
      '<section>no wrapper</section>' +
      '<script>window.oc=window.oc||{};oc.renderedComponents=oc.renderedComponents||{};oc.renderedComponents["core-container"]="1.0.0";</script>',
    type: 'oc-component',
    renderMode: 'rendered',
    baseUrl: url,
  });

  const info = await request(`${url}core-no-render-info/1.0.0/~info`);
  const hashKey: string = info.body.oc.files.template.hashKey;
  const noInfo = await request(`${url}core-no-render-info/1.0.0`);
  t.equal(noInfo.status, 200);
  t.same(
    { ...noInfo.body, html: noInfo.body.html.replace(/id="[0-9a-f-]{36}"/, 'id="ID"') },
    {
      href: `${url}core-no-render-info/1.0.0`,
      name: 'core-no-render-info',
      version: '1.0.0',
      requestVersion: '1.0.0',
      html:
        `<oc-component href="${url}core-no-render-info/1.0.0" data-hash="${hashKey}" id="ID" data-name="core-no-render-info" ` +
        'data-rendered="true" data-version="1.0.0"><section>no render info</section></oc-component>',
      type: 'oc-component',
      renderMode: 'rendered',
      baseUrl: url,
    },
  );
});
