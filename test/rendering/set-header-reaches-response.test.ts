import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('ctx.setHeader puts the header on the HTTP response', async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-headers')]);
  const { status, headers, body } = await request(`${url}rendering-headers?case=headers`);
  t.equal(status, 200);
  t.equal(headers.get('cache-control'), 'max-age=60');
  t.equal(headers.get('x-served-by'), 'rendering-headers');
  t.equal(headers.get('x-before'), 'set');
  t.equal(body.html, '<p>headers</p>');
});
