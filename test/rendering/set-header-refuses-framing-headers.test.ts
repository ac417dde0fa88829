import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('hop-by-hop headers and line breaks are refused: GENERIC_ERROR and a well-formed response', async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-headers')]);
  const cases: Array<[string, string]> = [
    ['content-length', 'Header "content-length" cannot be set by a component.'],
    ['transfer-encoding', 'Header "Transfer-Encoding" cannot be set by a component.'],
    ['connection', 'Header "connection" cannot be set by a component.'],
    ['crlf', 'The value of header "x-note" contains a line break.'],
  ];
  for (const [which, sentence] of cases) {
    const { status, headers, body, text } = await request(`${url}rendering-headers?case=${which}`);
    t.equal(status, 500, which);
    t.same(body, { code: 'GENERIC_ERROR', error: `Component "rendering-headers" failed: ${sentence}`, name: 'rendering-headers', requestVersion: '' }, which);
    t.equal(headers.get('content-length'), String(Buffer.byteLength(text)), which);
    t.equal(headers.get('content-type'), 'application/json; charset=utf-8', which);
    t.equal(headers.get('transfer-encoding'), null, which);
    t.equal(headers.get('x-before'), null, `${which}: headers set before the failure are dropped`);
    t.same(headers.getSetCookie(), [], which);
  }
});
