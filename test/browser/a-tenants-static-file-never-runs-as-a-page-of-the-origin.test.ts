import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { launchChromium, openPage } from './chromium';
import { startPageServer } from './page-server';

/**
 * A tenant publishes static files a browser opens as documents. Had any of their scripts run as a
 * page of the registry's origin, its title would start with `RAN` and hold the origin's cookies
 * (another tenant's among them) and another tenant's answer fetched with the visitor's credentials.
 */
declare const document: { title: string };

const DOCUMENTS = ['page.html', 'index.html', 'PAGE.HTM', 'image.svg', 'page.xhtml', 'feed.xml'];

t.test("a tenant's HTML, SVG, XHTML and XSLT-styled XML opened in a browser run no script in the registry's origin", async (t) => {
  const { url } = await startRegistry(t, [ofTenant('mallory', fixture('hostile-static-pages')), ofTenant('beta', fixture('tenant-beta'))]);
  const browser = await launchChromium(t);
  const { page } = await openPage(browser);
  // The visitor holds beta's session, and a cookie of beta's that scripts of its origin could read.
  t.equal((await page.goto(`${url}tenant-beta?login=true`))?.status(), 200);
  await page.context().addCookies([{ name: 'oc.tenant-beta.prefs', value: 'beta-readable', url }]);

  for (const file of DOCUMENTS) {
    const address = `${url}hostile-static-pages/1.0.0/static/public/${file}`;
    const answer = await page.goto(address);
    t.equal(answer?.status(), 200, file);
    t.equal(answer?.headers()['content-security-policy'], 'sandbox', `${file} is served sandboxed`);
    // Long enough for an inline script, an onerror, an XSLT and a fetch to the registry.
    await page.waitForTimeout(300);
    const title = await page.title();
    t.notOk(title.startsWith('RAN'), `${file}: no script of the tenant ran (title "${title}")`);
  }

  // The same HTML served by a site of its own, unsandboxed, does run: the title is a true witness.
  const site = await startPageServer(t, url);
  site.pages['/control'] = (await request(`${url}hostile-static-pages/1.0.0/static/public/page.html`)).text;
  await page.goto(`${site.origin}control`);
  await page.waitForFunction(() => document.title.startsWith('RAN'));
  t.pass('the control page ran its script');

  // Without an extension the file is bytes to save, never a page.
  const bare = await request(`${url}hostile-static-pages/1.0.0/static/public/no-extension`);
  t.equal(bare.status, 200);
  t.equal(bare.headers.get('content-type'), 'application/octet-stream');
  t.equal(bare.headers.get('x-content-type-options'), 'nosniff');
  t.equal(bare.headers.get('content-security-policy'), 'sandbox');
});
