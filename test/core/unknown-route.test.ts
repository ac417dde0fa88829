import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('an unknown route is 404 NOT_FOUND in the error body', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-versions-1.0.0')], (config) => {
    config.limits.sandboxHosts = 1;
  });

  const deep = await request(`${url}core-versions/1.0.0/nothing/here?x=1`);
  t.equal(deep.status, 404);
  t.same(deep.body, { code: 'NOT_FOUND', error: 'No route answers GET /core-versions/1.0.0/nothing/here.', name: '', requestVersion: '' });

  const doubled = await request(`${url}/core-versions`);
  t.equal(doubled.status, 404);
  t.same(doubled.body, { code: 'NOT_FOUND', error: 'No route answers GET //core-versions.', name: '', requestVersion: '' }, 'a doubled slash names no component');

  const method = await request(`${url}core-versions`, { method: 'DELETE' });
  t.equal(method.status, 404);
  t.same(method.body, { code: 'NOT_FOUND', error: 'No route answers DELETE /core-versions.', name: '', requestVersion: '' });
});
