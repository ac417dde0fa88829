import t from 'tap';
import { MAX_COOKIE_AGE_MS } from '../../src/front/apply-component-headers';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('ctx.setCookie options become Set-Cookie attributes (maxAge in ms, Max-Age in s), living at most a week', async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-headers')]);
  const before = Date.now();
  const { status, headers } = await request(`${url}rendering-headers?case=cookies`);
  t.equal(status, 200);
  const after = Date.now();
  const [session, theme, until, cross] = headers.getSetCookie();
  // maxAge also sets Expires to now + maxAge (to the second), a moment that depends on when the request ran.
  const expiresOf = (cookie: string | undefined) => /; Expires=([^;]+);/.exec(cookie ?? '')?.[1] ?? '';
  const expires = expiresOf(session);
  const setAt = Date.parse(expires) - 3_600_000;
  t.ok(setAt > before - 1000 && setAt <= after, `Expires is one hour after the request (${expires})`);
  // Its `domain: 'example.com'` is not applied: a component's cookies are host-only.
  t.equal(session, `oc.rendering-headers.session=abc%201; Max-Age=3600; Expires=${expires}; Path=/; HttpOnly; Secure; SameSite=Lax`);
  t.equal(theme, 'oc.rendering-headers.theme=dark; Path=/');
  // Asked to last until 2030, it lasts a week from the request.
  const capped = expiresOf(until);
  const cappedAt = Date.parse(capped) - MAX_COOKIE_AGE_MS;
  t.ok(cappedAt > before - 1000 && cappedAt <= after, `Expires is a week after the request (${capped})`);
  t.equal(until, `oc.rendering-headers.until=new-year; Expires=${capped}; Path=/; SameSite=Strict`);
  t.equal(cross, 'oc.rendering-headers.cross=1; Path=/; Secure; SameSite=None');
});
