import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('ctx.setCookie options become Set-Cookie attributes (maxAge in ms, Max-Age in s)', async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-headers')]);
  const before = Date.now();
  const { status, headers } = await request(`${url}rendering-headers?case=cookies`);
  t.equal(status, 200);
  const after = Date.now();
  const [session, ...others] = headers.getSetCookie();
  // maxAge also sets Expires to now + maxAge (to the second), a moment that depends on when the request ran.
  const expires = /; Expires=([^;]+);/.exec(session ?? '')?.[1] ?? '';
  const setAt = Date.parse(expires) - 3_600_000;
  t.ok(setAt > before - 1000 && setAt <= after, `Expires is one hour after the request (${expires})`);
  t.equal(session, `oc.rendering-headers.session=abc%201; Max-Age=3600; Expires=${expires}; Domain=example.com; Path=/app; HttpOnly; Secure; SameSite=Lax`);
  t.same(others, [
    'oc.rendering-headers.theme=dark; Path=/',
    'oc.rendering-headers.until=new-year; Expires=Tue, 01 Jan 2030 00:00:00 GMT; Path=/; SameSite=Strict',
    'oc.rendering-headers.cross=1; Path=/; Secure; SameSite=None',
  ]);
});
