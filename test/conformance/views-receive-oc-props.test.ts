import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('a view gets _staticPath, _baseUrl, _componentName and _componentVersion beside the model; data stays the model', async (t) => {
  const { url } = await startRegistry(t, [fixture('conformance-oc-props')]);
  const rendered = await request(`${url}conformance-oc-props?name=Ada`);
  t.equal(rendered.status, 200);
  t.match(
    rendered.body.html,
    `>` + `<p>Ada from conformance-oc-props@1.2.3, files at ${url}conformance-oc-props/1.2.3/static/, registry ${url}</p></oc-component>`,
  );

  const unrendered = await request(`${url}conformance-oc-props?name=Ada`, { headers: { accept: 'application/vnd.oc.unrendered+json' } });
  t.strictSame(unrendered.body.data, { name: 'Ada' });
});
