import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('ctx.setCookie options become Set-Cookie attributes (maxAge in ms, Max-Age in s)', async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-headers')]);
  const before = Date.now();
  const { status, headers } = await request(`${url}rendering-headers?case=cookies`);
  t.equal(status, 200);
  const [session, ...others] = headers.getSetCookie();
  // maxAge also sets Expires to now + maxAge, a moment that depends on when the request ran.
  const expires = /; Expires=([^;]+);/.exec(session ?? '')?.[1] ?? '';
  const expected = Date.parse(expires) - before;
  t.ok(expected > 3_595_000 && expected <= 3_601_000, `Expires is one hour ahead (${expires})`);
  t.equal(session, `session=abc%201; Max-Age=3600; Expires=${expires}; Domain=example.com; Path=/app; HttpOnly; Secure; SameSite=Lax`);
  t.same(others, [
    'theme=dark; Path=/',
    'until=new-year; Expires=Tue, 01 Jan 2030 00:00:00 GMT; Path=/; SameSite=Strict',
    'cross=1; Path=/; Secure; SameSite=None',
  ]);
});
