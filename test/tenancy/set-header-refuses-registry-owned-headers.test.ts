import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('setHeader refuses the headers the registry owns: GENERIC_ERROR, and none of them reaches the response', async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-headers')]);
  const cases: Array<[string, string]> = [
    ['set-cookie', 'Set-Cookie'],
    ['content-type', 'content-type'],
    ['access-control', 'Access-Control-Allow-Origin'],
    ['csp', 'content-security-policy'],
    ['hsts', 'strict-transport-security'],
    ['nosniff', 'x-content-type-options'],
    ['content-encoding', 'content-encoding'],
  ];
  for (const [which, header] of cases) {
    const { status, headers, body } = await request(`${url}rendering-headers?case=${which}`);
    t.equal(status, 500, which);
    t.strictSame(
      body,
      { code: 'GENERIC_ERROR', error: `Component "rendering-headers" failed: Header "${header}" cannot be set by a component.`, name: 'rendering-headers', requestVersion: '' },
      which,
    );
    t.same(headers.getSetCookie(), [], `${which}: no cookie`);
    t.equal(headers.get('content-type'), 'application/json; charset=utf-8', `${which}: the registry's content type`);
    t.equal(headers.get('access-control-allow-origin'), '*', `${which}: the registry's own CORS answer`);
    t.equal(headers.get('content-security-policy'), null, which);
    t.equal(headers.get('strict-transport-security'), null, which);
    t.equal(headers.get('content-encoding'), null, which);
  }
});
