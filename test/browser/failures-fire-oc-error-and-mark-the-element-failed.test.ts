import t from 'tap';
import { fixture, startRegistry } from '../helpers/start-registry';
import { launchChromium, openPage } from './chromium';
import { RECORD_EVENTS, type PageDocument, type PageWindow } from './page-globals';
import { startPageServer } from './page-server';

declare const window: PageWindow;
declare const document: PageDocument;

t.test('an unknown component fails at once, a throwing one after its retries, a flaky answer is retried until it renders', async (t) => {
  const { url: registry } = await startRegistry(t, [fixture('browser-greeting'), fixture('browser-failing')]);
  const site = await startPageServer(t, registry);
  site.pages['/'] =
    `<!doctype html><html><head><meta charset="utf-8"><script>window.oc={conf:{retryInterval:20,retryLimit:2}};${RECORD_EVENTS}</script>` +
    `<script src="${registry}oc-client/client.js"></script></head><body>` +
    `<oc-component id="unknown" href="${site.origin}proxy/browser-nothing/?x=1"></oc-component>` +
    `<oc-component id="failing" href="${site.origin}proxy/browser-failing/1.0.0/"></oc-component>` +
    `<oc-component id="flaky" href="${site.origin}flaky/browser-greeting/1.0.0/?name=Flaky"></oc-component>` +
    `</body></html>`;
  const browser = await launchChromium(t);
  const { page, pageErrors } = await openPage(browser);
  await page.goto(site.origin);
  await page.waitForFunction(() => window.seen.length >= 3);

  const seen = await page.evaluate(() => window.seen);
  const of = (id: string) => seen.find((event) => event.id === id);
  t.same(of('unknown'), {
    type: 'oc:error',
    name: 'browser-nothing',
    version: '',
    href: `${site.origin}proxy/browser-nothing/?x=1`,
    id: 'unknown',
    isElement: true,
    status: 404,
    code: 'NOT_FOUND',
    error: 'Component "browser-nothing" is not published on this registry.',
  });
  t.equal(site.hits.get('browser-nothing/'), 1, 'a 4xx is final: asked once');

  t.same(of('failing'), {
    type: 'oc:error',
    name: 'browser-failing',
    version: '1.0.0',
    href: `${site.origin}proxy/browser-failing/1.0.0/`,
    id: 'failing',
    isElement: true,
    status: 500,
    code: 'GENERIC_ERROR',
    error: 'Component "browser-failing" failed: The handler always fails',
  });
  t.equal(site.hits.get('browser-failing/1.0.0/'), 3, 'a 5xx is retried retryLimit (2) times, then given up');

  t.same(of('flaky'), { type: 'oc:rendered', name: 'browser-greeting', version: '1.0.0', href: `${site.origin}flaky/browser-greeting/1.0.0/?name=Flaky`, id: 'flaky', isElement: true });
  t.equal(site.hits.get('browser-greeting/1.0.0/'), 3, 'two 503s, then the answer');
  t.equal(await page.$eval('#flaky p.greeting', (element) => element.textContent), 'Hello, Flaky!');

  const state = (id: string) =>
    page.$eval(`#${id}`, (element) => ({
      failed: element.getAttribute('data-failed'),
      rendered: element.getAttribute('data-rendered'),
      rendering: element.getAttribute('data-rendering'),
      html: element.innerHTML,
    }));
  const failed = { failed: 'true', rendered: 'false', rendering: 'false', html: '' };
  t.same(await state('unknown'), failed, 'the failed element is marked and emptied');
  t.same(await state('failing'), failed);
  t.equal(await page.evaluate(() => document.querySelectorAll('[data-failed]').length), 2, 'only the failed elements are marked');
  t.same(pageErrors, []);
});
