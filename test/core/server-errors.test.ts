import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('a failing handler answers GENERIC_ERROR with its status', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-failing')], (config) => {
    config.limits.sandboxHosts = 1;
  });
  const texts: string[] = [];

  for (const accept of [undefined, 'application/vnd.oc.unrendered+json']) {
    const plain = await request(`${url}core-failing`, accept ? { headers: { accept } } : {});
    texts.push(plain.text);
    t.equal(plain.status, 500, 'a plain Error is 500');
    t.same(plain.body, { code: 'GENERIC_ERROR', error: 'Component "core-failing" failed: The handler always fails', name: 'core-failing', requestVersion: '' });
  }

  const teapot = await request(`${url}core-failing/1.0.0?kind=teapot`);
  texts.push(teapot.text);
  t.equal(teapot.status, 418, 'ServerError(418, …) answers 418');
  t.same(teapot.body, { code: 'GENERIC_ERROR', error: 'Component "core-failing" failed: I am a teapot', name: 'core-failing', requestVersion: '1.0.0' });

  const statusObject = await request(`${url}core-failing?kind=status-object`);
  texts.push(statusObject.text);
  t.equal(statusObject.status, 410, "an error's numeric status is used");
  t.same(statusObject.body, { code: 'GENERIC_ERROR', error: 'Component "core-failing" failed: Gone for good', name: 'core-failing', requestVersion: '' });

  for (const text of texts) t.notMatch(text, /\bat \S+ \(|\/tmp\/|entry\.server|"stack"/, 'no stack trace or host path');
});
