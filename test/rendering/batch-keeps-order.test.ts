import t from 'tap';
import { fixture, startRegistry } from '../helpers/start-registry';
import { postJson } from './post-json';

t.test('a batch answers 200 with one item per component, in request order, each failing on its own', async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-child'), fixture('rendering-child-v2')]);
  const { status, headers, body } = await postJson(
    url,
    {
      components: [
        { name: 'rendering-child', parameters: { who: 'Ada' } },
        { name: 'no-such-component' },
        { name: 'rendering-child', version: '1.0.0', parameters: { fail: true } },
        { name: 'rendering-child', version: '3.x' },
        { name: 'rendering-child', version: '1.0.0', parameters: { fail: 'maybe' } },
        { name: 'rendering-child', version: '1.0.0' },
      ],
    },
    { 'x-trace': 'batch' },
  );
  t.equal(status, 200);
  t.equal(headers.get('content-type'), 'application/json; charset=utf-8');
  const rendered = (href: string, version: string, requestVersion: string, html: string) => ({
    status: 200,
    response: { href: url + href, name: 'rendering-child', version, requestVersion, html, type: 'oc-component', renderMode: 'rendered', baseUrl: url },
  });
  t.same(body, [
    rendered('rendering-child?who=Ada&fail=false', '2.0.0', '', '<i>v2 {"who":"Ada"} trace=batch</i>'),
    {
      status: 404,
      response: { code: 'NOT_FOUND', error: 'Component "no-such-component" is not published on this registry.', name: 'no-such-component', requestVersion: '' },
    },
    {
      status: 418,
      response: { code: 'GENERIC_ERROR', error: 'Component "rendering-child" failed: The child was asked to fail', name: 'rendering-child', requestVersion: '1.0.0' },
    },
    {
      status: 404,
      response: { code: 'NOT_FOUND', error: 'Component "rendering-child" has no version matching "3.x"; published versions: 1.0.0, 2.0.0.', name: 'rendering-child', requestVersion: '3.x' },
    },
    {
      status: 400,
      response: {
        code: 'NOT_VALID_REQUEST',
        error: 'Parameter "fail" must be a boolean.',
        name: 'rendering-child',
        requestVersion: '1.0.0',
        details: { parameters: [{ name: 'fail', problem: 'wrong type' }] },
      },
    },
    rendered('rendering-child/1.0.0?fail=false', '1.0.0', '1.0.0', '<i>v1 {} trace=batch</i>'),
  ]);
});
