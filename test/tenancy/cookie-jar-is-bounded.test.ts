import t from 'tap';
import { MAX_COOKIE_AGE_MS } from '../../src/front/apply-component-headers';
import { fixture, ofTenant, registryOfTheFile, request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders, hostileBesideBystander } from '../sandbox/bystander';

const NAME = 'hostile-cookie-jar';
const failed = (error: string) => ({ code: 'GENERIC_ERROR', error: `Component "${NAME}" failed: ${error}`, name: NAME, requestVersion: '' });
const MAX_AGE = `Max-Age=${MAX_COOKIE_AGE_MS / 1000}`;

/** What the visitor's browser sends back after keeping these `Set-Cookie`s. */
const jarOf = (setCookies: string[]): string => setCookies.map((cookie) => cookie.slice(0, cookie.indexOf(';'))).join('; ');

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile([fixture(NAME), BYSTANDER], TWO_HOSTS);

t.test('a component cannot fill the origin\'s cookie jar, nor send the visitor on to fill it again', async (t) => {
  const started = await sharedRegistry();
  const { url } = started;

  // Uncaught, the refusal fails the answer, and nothing it set reaches the visitor.
  await hostileBesideBystander(t, started, `${NAME}?attack=flood&round=a`, { status: 500, body: failed('A component may set at most 8 cookies in one answer.') });
  const refused = await request(`${url}${NAME}?attack=flood&round=a`);
  t.same(refused.headers.getSetCookie(), [], 'a failed answer sets no cookie');

  // Caught, the first answer keeps 8 cookies of 415 bytes, for a week, and no Refresh.
  const first = await request(`${url}${NAME}?attack=flood-caught&round=a`);
  t.equal(first.status, 200);
  t.equal(first.body.html, '<p>kept 8 of 20 cookies; A component may set at most 8 cookies in one answer. | Header "Refresh" cannot be set by a component.</p>');
  t.equal(first.headers.get('refresh'), null, 'no Refresh: the visitor is not sent back for more');
  const cookies = first.headers.getSetCookie();
  t.same(
    cookies.map((cookie) => cookie.replace(/; Expires=[^;]+/, '')),
    Array.from({ length: 8 }, (_, i) => `oc.${NAME}.a${i}=${'v'.repeat(390)}; ${MAX_AGE}; Path=/`),
    'eight cookies, ten years cut to a week',
  );
  const jar = jarOf(cookies);
  t.equal(jar.length, 8 * `oc.${NAME}.a0=`.length + 8 * 390 + 7 * '; '.length, 'the jar holds 3.3 KB of this component');

  // The visitor comes back with them: no new name is kept, whatever the component tries.
  const second = await request(`${url}${NAME}?attack=flood-caught&round=b`, { headers: { cookie: jar } });
  t.equal(second.status, 200);
  t.equal(
    second.body.html,
    `<p>kept 0 of 20 cookies; setCookie: a visitor keeps at most 8 cookies of one component; "b19" would be one more. | Header "Refresh" cannot be set by a component.</p>`,
  );
  t.same(second.headers.getSetCookie(), [], 'the second answer adds nothing to the jar');

  // Another tenant still answers that visitor exactly, with the jar as it is.
  await bystanderRenders(t, started, 'Visitor', 'the bystander, for the visitor holding the jar', { headers: { cookie: jar } });
  // What the bounds keep away: past 16 KB of headers the registry answers nothing else to that visitor.
  const full = await request(`${url}hello-world/1.0.0?name=Visitor`, { headers: { cookie: `${jar}; ${'x'.repeat(16 * 1024)}=1` } });
  t.equal(full.status, 413, 'a jar of 16 KB would lock the visitor out of every tenant');
  t.equal(full.body.code, 'PAYLOAD_TOO_LARGE');
});

t.test("a component's cookies in the visitor's jar hold at most 4096 bytes; held ones may be overwritten or deleted", async (t) => {
  const started = await sharedRegistry();
  const { url } = started;
  const holding = (bytes: Record<string, number>) => ({
    headers: { cookie: Object.entries(bytes).map(([name, size]) => `oc.${NAME}.${name}=${'v'.repeat(size - `oc.${NAME}.${name}=`.length)}`).join('; ') },
  });
  const cases: Array<[string, Record<string, number>, number, unknown]> = [
    // 3000 held, 1500 more under a new name: over.
    [`name=other&bytes=1500`, { big: 3000 }, 500, failed("setCookie: a visitor keeps at most 4096 bytes of one component's cookies.")],
    // The held one grows to 4000: within.
    [`name=big&bytes=4000`, { big: 3000 }, 200, { text: 'set' }],
    // Held from before at 6000 together: shrinking one of them is allowed, growing it is not.
    [`name=one&bytes=100`, { one: 3000, two: 3000 }, 200, { text: 'set' }],
    [`name=one&bytes=3001`, { one: 3000, two: 3000 }, 500, failed("setCookie: a visitor keeps at most 4096 bytes of one component's cookies.")],
    // A new name needs room in the jar as well as in the answer.
    [`name=ninth&bytes=30`, Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`held${i}`, 30])), 500, failed('setCookie: a visitor keeps at most 8 cookies of one component; "ninth" would be one more.')],
    [`name=held3&bytes=30`, Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`held${i}`, 30])), 200, { text: 'set' }],
  ];
  for (const [query, held, status, wanted] of cases) {
    const answer = await request(`${url}${NAME}?attack=set&${query}`, holding(held));
    t.equal(answer.status, status, `${query} holding ${JSON.stringify(held)}: status`);
    t.same(status === 200 ? { text: answer.body.html === '<p>set</p>' ? 'set' : answer.body.html } : answer.body, wanted, `${query} holding ${JSON.stringify(held)}`);
  }
  // A name set again in one answer replaces it: one cookie, the last.
  const again = await request(`${url}${NAME}?attack=same-name`);
  t.equal(again.status, 200);
  t.same(again.headers.getSetCookie(), [`oc.${NAME}.session=19${'v'.repeat(390)}; Path=/`], 'a name set twenty times is one cookie');
  // Another component's cookies and the site's own are not this component's: they take none of its room.
  const others = await request(`${url}${NAME}?attack=set&name=mine&bytes=4000`, { headers: { cookie: `oc.hello-world.big=${'w'.repeat(4000)}; site=${'s'.repeat(4000)}` } });
  t.equal(others.status, 200);
  await bystanderRenders(t, started, 'After', 'another tenant after the jar checks');
});

// An option the registry does not apply never fails a component (decisions §11): whatever path it
// names (OC's components write `path: '/cf'`), its cookie is written under the registry's one path, so
// it comes back with every request to the registry and one name is one cookie in the visitor's jar.
t.test('a cookie is written under the registry\'s path whatever path the component named', async (t) => {
  const started = await sharedRegistry();
  const cookie = `oc.${NAME}.session=${'v'.repeat(40 - `oc.${NAME}.session=`.length)}; Path=/`;
  for (const path of ['/', '/cf', '/hello-world', 'oc/', `/${'p'.repeat(300)}`]) {
    const { status, headers } = await request(`${started.url}${NAME}?attack=set&path=${path}`);
    t.equal(status, 200, path);
    t.same(headers.getSetCookie(), [cookie], path);
  }
  await bystanderRenders(t, started, 'After', 'another tenant after cookies with paths of their own');
});

t.test('behind a public base URL with a path, every path a component names is written as the one path', async (t) => {
  const started = await startRegistry(t, [fixture(NAME)], (config) => {
    config.baseUrl = 'https://components.example/oc/';
  });
  for (const path of ['/', '/oc', '/oc/', '/o', '/oc/deeper', '/other', 'oc/']) {
    const { status, headers } = await request(`${started.url}${NAME}?attack=set&path=${path}`);
    t.equal(status, 200, path);
    t.same(headers.getSetCookie(), [`oc.${NAME}.session=${'v'.repeat(40 - `oc.${NAME}.session=`.length)}; Path=/`], path);
  }
});

t.test('setHeader refuses every header that makes a browser fetch or navigate', async (t) => {
  const started = await sharedRegistry();
  await hostileBesideBystander(t, started, `${NAME}?attack=header&header=Refresh`, { status: 500, body: failed('Header "Refresh" cannot be set by a component.') });
  const names = [
    'Location', 'Content-Location', 'Link', 'Speculation-Rules', 'SourceMap', 'X-SourceMap', 'Content-Security-Policy-Report-Only',
    'Expect-CT', 'X-XSS-Protection', 'Activate-Storage-Access', 'Supports-Loading-Mode', 'Attribution-Reporting-Register-Source', 'refresh',
  ];
  for (const name of names) {
    const { status, headers, body } = await request(`${started.url}${NAME}?attack=header&header=${name}`);
    t.equal(status, 500, name);
    t.strictSame(body, failed(`Header "${name}" cannot be set by a component.`), name);
    t.equal(headers.get(name), null, `${name}: not in the response`);
  }
  await bystanderRenders(t, started, 'After', 'another tenant after the refused headers');
});

// One tenant may publish many components: each within its own bounds, three of them together
// filled the jar past what a visitor's requests may carry. Together they hold at most 8 KB.
t.test("a tenant's components together keep at most 16 cookies and 8192 bytes in the visitor's jar", async (t) => {
  const copies = ['jar-one', 'jar-two', 'jar-three'].map((name) => ({ dir: fixture(NAME), tenant: 'mallory', name }));
  const started = await startRegistry(t, [...copies, ofTenant('ada', BYSTANDER)]);
  const { url } = started;
  let jar = '';
  const visit = async (name: string, query: string) => {
    const answer = await request(`${url}${name}?${query}`, jar === '' ? {} : { headers: { cookie: jar } });
    const added = jarOf(answer.headers.getSetCookie());
    jar = [jar, added].filter((part) => part !== '').join('; ');
    return answer;
  };
  const refresh = 'Header "Refresh" cannot be set by a component.';
  t.equal((await visit('jar-one', 'attack=flood-caught&round=a')).body.html, `<p>kept 8 of 20 cookies; A component may set at most 8 cookies in one answer. | ${refresh}</p>`);
  t.equal((await visit('jar-two', 'attack=flood-caught&round=b')).body.html, `<p>kept 8 of 20 cookies; A component may set at most 8 cookies in one answer. | ${refresh}</p>`, 'a second component of the tenant keeps its own eight');
  t.equal(
    (await visit('jar-three', 'attack=flood-caught&round=c')).body.html,
    `<p>kept 0 of 20 cookies; setCookie: a visitor keeps at most 16 cookies of one tenant's components; "c19" would be one more. | ${refresh}</p>`,
    "the third finds the tenant's 16 names taken",
  );
  t.ok(jar.length <= 8192 + 15 * '; '.length, `the visitor's jar holds ${jar.length} bytes of the tenant's cookies`);
  await bystanderRenders(t, started, 'Visitor', 'another tenant, for the visitor holding the jar', { headers: { cookie: jar } });

  // Few names, large values: the bytes bound holds on its own.
  jar = '';
  t.equal((await visit('jar-one', 'attack=set&name=big&bytes=4000')).status, 200);
  t.equal((await visit('jar-two', 'attack=set&name=big&bytes=4000')).status, 200);
  const past = await visit('jar-three', 'attack=set&name=big&bytes=1000');
  t.same([past.status, past.body.error], [500, `Component "jar-three" failed: setCookie: a visitor keeps at most 8192 bytes of the cookies of one tenant's components.`], 'the third would pass the tenant\'s 8 KB');
});
