import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

const ID = /id="[0-9a-f-]{36}"/;

t.test('setEmptyResponse and a handler returning nothing', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-outcomes')], (config) => {
    config.limits.sandboxHosts = 1;
  });
  const hashKey: string = (await request(`${url}core-outcomes/1.0.0/~info`)).body.oc.files.template.hashKey;

  t.test('setEmptyResponse: html is empty, no wrapper, no render info', async (t) => {
    const { status, body } = await request(`${url}core-outcomes?outcome=empty`);
    t.equal(status, 200);
    t.same(body, {
      href: `${url}core-outcomes?outcome=empty`,
      name: 'core-outcomes',
      version: '1.0.0',
      requestVersion: '',
      html: '',
      type: 'oc-component',
      renderMode: 'rendered',
      baseUrl: url,
    });
  });

  t.test('setEmptyResponse, unrendered: data is {"__oc_emptyResponse": true}', async (t) => {
    const { status, body } = await request(`${url}core-outcomes/1.0.0?outcome=empty`, { headers: { accept: 'application/vnd.oc.unrendered+json' } });
    t.equal(status, 200);
    t.same(body, {
      href: `${url}core-outcomes/1.0.0?outcome=empty`,
      name: 'core-outcomes',
      version: '1.0.0',
      requestVersion: '1.0.0',
      data: { __oc_emptyResponse: true },
      template: { src: `${url}core-outcomes/1.0.0/static/template.js`, type: 'oc-template-es6', key: hashKey },
      type: 'oc-component',
      renderMode: 'unrendered',
      baseUrl: url,
    });
  });

  for (const outcome of ['nothing', 'null']) {
    t.test(`a handler returning ${outcome}: the wrapper and render info around empty content`, async (t) => {
      const href = `${url}core-outcomes?outcome=${outcome}`;
      const { status, body } = await request(href);
      t.equal(status, 200);
      t.same(
        { ...body, html: body.html.replace(ID, 'id="ID"') },
        {
          href,
          name: 'core-outcomes',
          version: '1.0.0',
          requestVersion: '',
          html:
            `<oc-component href="${href}" data-hash="${hashKey}" id="ID" data-name="core-outcomes" data-rendered="true" data-version="1.0.0">` +
            '<script>window.oc=window.oc||{};oc.renderedComponents=oc.renderedComponents||{};oc.renderedComponents["core-outcomes"]="1.0.0";</script>' +
            '</oc-component>',
          type: 'oc-component',
          renderMode: 'rendered',
          baseUrl: url,
        },
      );
    });
  }
});
