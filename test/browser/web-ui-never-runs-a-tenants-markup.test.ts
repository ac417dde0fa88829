import t from 'tap';
import { fixture, ofTenant, startRegistry } from '../helpers/start-registry';
import { launchChromium, openPage } from './chromium';

declare const document: { title: string; querySelectorAll(selector: string): ArrayLike<unknown> };

/**
 * A tenant writes markup into every descriptor field the web UI shows (description, author,
 * repository, a parameter's description, example, default and allowed values), and a view that,
 * in the live preview, reaches for the registry's page, moves it, opens a window, writes a cookie and
 * forges the frame's reports with markup. Any of it running as the registry's page would set the
 * title to something with `RAN`, add an element or move the page.
 */
t.test("the web UI's list and component pages show a tenant's markup as text, and its preview stays in its sandbox", async (t) => {
  const { url } = await startRegistry(t, [ofTenant('mallory', fixture('hostile-web-ui'))]);
  const browser = await launchChromium(t);
  const { page, pageErrors } = await openPage(browser);
  const popups: string[] = [];
  page.context().on('page', (opened) => popups.push(opened.url()));
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  await page.goto(url);
  t.equal(await page.title(), 'Tessera: components');
  t.match(await page.textContent('#components p'), /Markup in every descriptor field the web UI shows "'><script>/, 'the description shows as text');
  t.equal(await page.evaluate(() => document.querySelectorAll('main script, main img').length), 0, 'no element of the tenant in the list');

  await page.goto(`${url}hostile-web-ui/~info`);
  await page.waitForSelector('#preview-status[data-state="failed"]');
  // The forged report arrives after the real one: its markup is text in the status.
  t.equal(await page.textContent('#preview-status'), `Failed with 500 <b>CODE</b>: <img src=x onerror="document.title='RAN'">`);
  await page.waitForTimeout(200);
  t.equal(await page.title(), 'hostile-web-ui 1.0.0: Tessera', 'no script of the tenant renamed the registry page');
  t.equal(page.url(), `${url}hostile-web-ui/~info`, 'the preview did not move the registry page');
  t.equal(await page.evaluate(() => document.querySelectorAll('main script, main img, main b').length), 0, 'no element of the tenant in the component page');
  t.equal(await page.frameLocator('#preview').locator('p.hostile').count(), 1, 'the view rendered in its frame');
  t.same(popups, [], 'no window opened');
  t.same(dialogs, []);
  t.same((await page.context().cookies(url)).map((cookie) => cookie.name), [], 'the frame wrote no cookie of the origin');
  t.same(pageErrors, []);
});
