import t from 'tap';
import { fixture, ofTenant, startRegistry, type TenantComponent } from '../helpers/start-registry';
import { launchChromium, openPage } from './chromium';

/**
 * Chromium keeps at most 180 cookies per host and, past that, evicts the least recently used down
 * to 150, whoever set them. Every tenant's cookies live in the one jar of the registry's origin: a
 * bound per component (8 names) and per tenant in bytes (8192) alone let one tenant with 23 small
 * components put 184 cookies of a few bytes each there, and the jar then dropped the oldest cookies,
 * another tenant's session among them. A tenant's components together keep at most 16 names.
 */
/** Enough components to pass the tenant's 16 names (23 of them, unbounded, evicted the session). */
const CROWD = 3;

t.test("one tenant's components cannot crowd another tenant's session cookie out of the visitor's jar", async (t) => {
  const crowd: TenantComponent[] = Array.from({ length: CROWD }, (_, i) => ({ dir: fixture('hostile-cookie-crowd'), tenant: 'mallory', name: `crowd-${i}` }));
  const { url } = await startRegistry(t, [ofTenant('beta', fixture('tenant-beta')), ...crowd]);
  const browser = await launchChromium(t);
  const { page, pageErrors } = await openPage(browser);

  // The visitor logs in to beta's component, on the registry's origin.
  const login = await page.goto(`${url}tenant-beta?login=true`);
  t.equal(login?.status(), 200);
  const before = await page.goto(`${url}tenant-beta`);
  t.equal((await before!.json()).html, '<p>session=beta-secret</p>', 'beta sees its session before the crowd');

  // The visitor then meets mallory's components, each keeping what one component may keep.
  let kept = 0;
  for (let i = 0; i < CROWD; i++) {
    const answer = await page.goto(`${url}crowd-${i}`);
    t.equal(answer?.status(), 200, `crowd-${i} answered`);
    kept += Number(/kept (\d+)/.exec((await answer!.json()).html)?.[1]);
  }
  t.equal(kept, 16, "one tenant's components together keep 16 cookies in the visitor's jar");
  const jar = await page.context().cookies(url);
  const mallory = jar.filter((cookie) => cookie.name.startsWith('oc.crowd-')).length;
  t.comment(`the jar holds ${jar.length} cookies of the registry's origin, ${mallory} of them mallory's`);

  const after = await page.goto(`${url}tenant-beta`);
  t.equal(after?.status(), 200);
  t.equal((await after!.json()).html, '<p>session=beta-secret</p>', "beta's visitor keeps the session another tenant's cookies would evict");
  t.ok(
    jar.some((cookie) => cookie.name === 'oc.tenant-beta.session'),
    "beta's session cookie is still in the visitor's jar",
  );
  t.same(pageErrors, []);
});
