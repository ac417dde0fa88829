import t from 'tap';
import { fixture, startRegistry } from '../helpers/start-registry';
import { launchChromium, openPage } from './chromium';
import { RECORD_EVENTS, type PageDocument, type PageWindow } from './page-globals';
import { startPageServer } from './page-server';

declare const window: PageWindow;
declare const document: PageDocument;

t.test('a loading="lazy" component asks the registry only once it scrolls into view', async (t) => {
  const { url: registry } = await startRegistry(t, [fixture('browser-greeting')]);
  const site = await startPageServer(t, registry);
  site.pages['/'] =
    `<!doctype html><html><head><meta charset="utf-8"><script>${RECORD_EVENTS}</script><script src="${registry}oc-client/client.js"></script></head><body>` +
    `<oc-component id="eager" href="${site.origin}proxy/browser-greeting/1.0.0/?name=Eager"></oc-component>` +
    `<div style="height:3000px">far above the fold</div>` +
    `<oc-component id="lazy" loading="lazy" href="${site.origin}proxy/browser-greeting/?name=Lazy"></oc-component>` +
    `</body></html>`;
  const browser = await launchChromium(t);
  const { page, pageErrors } = await openPage(browser, { viewport: { width: 800, height: 600 } });
  await page.goto(site.origin);

  await page.waitForSelector('#eager[data-rendered="true"]');
  // The eager one rendered, and a later one would have had time to: the lazy one is still waiting.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
  t.equal(site.hits.get('browser-greeting/'), undefined, 'no request while out of view');
  t.equal(await page.$eval('#lazy', (element) => element.getAttribute('data-rendered')), null);
  await page.evaluate(() => document.getElementById('lazy')!.scrollIntoView());

  await page.waitForSelector('#lazy[data-rendered="true"]');
  t.equal(site.hits.get('browser-greeting/'), 1, 'one request once visible');
  t.equal(await page.$eval('#lazy p.greeting', (element) => element.textContent), 'Hello, Lazy!');
  t.same(
    (await page.evaluate(() => window.seen)).map((event) => event.id),
    ['eager', 'lazy'],
  );
  t.same(pageErrors, []);
});
