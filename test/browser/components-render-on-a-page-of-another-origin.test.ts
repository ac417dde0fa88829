import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { launchChromium, openPage } from './chromium';
import { RECORD_EVENTS, type PageDocument, type PageWindow } from './page-globals';
import { startPageServer } from './page-server';

declare const window: PageWindow;
declare const document: PageDocument;

t.test('a page on another origin renders server-rendered, unrendered, nested, rendered-answer and built components, and calls data and actions', async (t) => {
  const { url: registry } = await startRegistry(t, [fixture('browser-greeting'), fixture('browser-nesting')]);
  // The site renders one component on its server and inlines the HTML, as OC pages do.
  const serverRendered = await request(`${registry}browser-greeting/1.0.0?name=Server`);
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><script>window.oc={conf:{retryInterval:10,retryLimit:2}};${RECORD_EVENTS}</script>` +
    `<script src="${registry}oc-client/client.js"></script></head><body>` +
    `<div id="server-rendered">${serverRendered.body.html}</div>` +
    `<oc-component id="unrendered" href="${registry}browser-greeting/1.0.0/?name=Ada"></oc-component>` +
    `<oc-component id="nesting" href="${registry}browser-nesting/"></oc-component>` +
    `<oc-component id="rendered-answer" href="PAGE/rendered-answer/browser-greeting/1.0.0?name=Proxy"></oc-component>` +
    `<div id="built"></div></body></html>`;
  const site = await startPageServer(t, registry);
  site.pages['/'] = html.replace('PAGE/', site.origin);
  const browser = await launchChromium(t);
  const { page, pageErrors } = await openPage(browser);
  await page.goto(site.origin);

  await page.waitForFunction(() => window.seen.length >= 4);
  const props = `browser-greeting 1.0.0 ${registry}browser-greeting/1.0.0/static/ ${registry}`;
  const unrendered = await page.$eval('#unrendered', (element) => ({
    html: element.innerHTML,
    rendered: element.getAttribute('data-rendered'),
    rendering: element.getAttribute('data-rendering'),
    name: element.getAttribute('data-name'),
    version: element.getAttribute('data-version'),
    hash: element.getAttribute('data-hash'),
  }));
  const key = (await request(`${registry}browser-greeting/1.0.0`, { headers: { accept: 'application/vnd.oc.unrendered+json' } })).body.template.key;
  t.same(unrendered, { html: `<p class="greeting" data-props="${props}">Hello, Ada!</p>`, rendered: 'true', rendering: 'false', name: 'browser-greeting', version: '1.0.0', hash: key }, 'rendered in the page with its template and OC props');

  t.equal(await page.$eval('#nesting', (element) => element.querySelector('section.outer oc-component p.greeting')?.textContent), 'Hello, Nested!', 'a component inside a component renders too');
  t.same(
    await page.$eval('#rendered-answer', (element) => ({ text: element.querySelector('p.greeting')?.textContent, wrappers: element.querySelectorAll('oc-component').length })),
    { text: 'Hello, Proxy!', wrappers: 0 },
    "a rendered answer's HTML goes inside the element, without the registry's wrapper",
  );
  t.same(
    await page.$eval('#server-rendered oc-component', (element) => ({ rendered: element.getAttribute('data-rendered'), text: element.querySelector('p.greeting')?.textContent })),
    { rendered: 'true', text: 'Hello, Server!' },
    'server-rendered HTML is left as it came',
  );

  const seen = await page.evaluate(() => window.seen);
  const rendered = (id: string) => seen.find((event) => event.id === id);
  t.same(rendered('unrendered'), { type: 'oc:rendered', name: 'browser-greeting', version: '1.0.0', href: `${registry}browser-greeting/1.0.0/?name=Ada`, id: 'unrendered', isElement: true });
  t.same(rendered('nesting'), { type: 'oc:rendered', name: 'browser-nesting', version: '1.0.0', href: `${registry}browser-nesting/`, id: 'nesting', isElement: true });
  t.same(rendered('rendered-answer'), { type: 'oc:rendered', name: 'browser-greeting', version: '1.0.0', href: `${site.origin}rendered-answer/browser-greeting/1.0.0?name=Proxy`, id: 'rendered-answer', isElement: true });
  t.equal(seen.filter((event) => event.type === 'oc:rendered').length, 4, 'one oc:rendered per rendered component, the nested one included');

  const built = await page.evaluate((base) => {
    const markup = window.oc.build({ baseUrl: base, name: 'browser-greeting', version: '1.0.0', parameters: { name: 'Built & co' } });
    document.getElementById('built')!.innerHTML = markup;
    return markup;
  }, registry);
  t.equal(built, `<oc-component href="${registry}browser-greeting/1.0.0/?name=Built%20%26%20co"></oc-component>`, 'oc.build writes the element');
  await page.waitForSelector('#built oc-component[data-rendered="true"]');
  t.equal(await page.$eval('#built p.greeting', (element) => element.textContent), 'Hello, Built & co!', 'an element added later renders');

  const action = await page.evaluate(() => window.oc.getAction({ component: 'browser-greeting', action: 'shout', parameters: { name: 'grace' } }));
  t.same(action, { shouted: 'GRACE!' }, "oc.getAction calls the action of the component rendered in the page, across origins");
  const data = await page.evaluate(
    (base) => new Promise((resolve) => window.oc.getData({ baseUrl: base, name: 'browser-greeting', version: '1.0.0', parameters: { name: 'Data' } }, (error, model) => resolve({ error, model }))),
    registry,
  );
  t.same(data, { error: null, model: { name: 'Data' } }, 'oc.getData answers the model through the batch route');
  t.same(pageErrors, [], 'no script error in the page');
});
