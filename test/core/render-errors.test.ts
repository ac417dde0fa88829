import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('a failing view or an unserializable view model is RENDER_ERROR 500', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-outcomes')], (config) => {
    config.limits.sandboxHosts = 1;
  });
  const renderError = (error: string, requestVersion = '') => ({ code: 'RENDER_ERROR', error, name: 'core-outcomes', requestVersion });

  const fine = await request(`${url}core-outcomes?outcome=model`);
  t.equal(fine.status, 200, 'the same component renders when nothing is wrong');
  t.match(fine.body.html, /<p>fine: <\/p>/);

  const viewThrows = await request(`${url}core-outcomes/1.0.0?outcome=view-throws`);
  t.equal(viewThrows.status, 500);
  t.same(viewThrows.body, renderError('Component "core-outcomes" failed: The view exploded', '1.0.0'));

  for (const outcome of ['bigint', 'circular']) {
    for (const accept of [undefined, 'application/vnd.oc.unrendered+json']) {
      const { status, body } = await request(`${url}core-outcomes?outcome=${outcome}`, accept ? { headers: { accept } } : {});
      t.equal(status, 500, `${outcome}, ${accept ?? 'rendered'}`);
      t.same(body, renderError('Component "core-outcomes" failed: The view model is not JSON-serializable.'), `${outcome}, ${accept ?? 'rendered'}`);
    }
  }

  const after = await request(`${url}core-outcomes?outcome=model`);
  t.equal(after.status, 200, 'the component keeps working after render errors');
});
