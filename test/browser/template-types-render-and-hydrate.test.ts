import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { launchChromium, openPage } from './chromium';
import { startPageServer } from './page-server';

/** The little of the DOM the page-side callbacks below use (the tests are type-checked without DOM types). */
interface Node {
  textContent: string | null;
  isConnected: boolean;
  click(): void;
  getAttribute(name: string): string | null;
  querySelector(selector: string): Node | null;
  querySelectorAll(selector: string): ArrayLike<Node>;
}
declare const document: { querySelector(selector: string): Node | null; querySelectorAll(selector: string): ArrayLike<Node> };
declare const window: { ssrButtons: Node[] };

const FIXTURES = ['templates-esm-counter', 'templates-react-counter', 'templates-handlebars-greeting', 'templates-esm-oc-mount'];

t.test('every template type renders in Chromium from an unrendered answer, and server-rendered esm and react markup hydrates', async (t) => {
  const { url: registry } = await startRegistry(t, FIXTURES.map(fixture));
  const serverRendered = async (path: string) => (await request(`${registry}${path}`)).body.html as string;
  // The site renders some components on its server and inlines their HTML, as OC pages do; the
  // others are <oc-component> elements the browser client renders from unrendered answers.
  const page =
    '<!doctype html><html><head><meta charset="utf-8"></head><body>' +
    `<div id="ssr-esm">${await serverRendered('templates-esm-counter?name=Ada&start=2')}</div>` +
    `<div id="ssr-react">${await serverRendered('templates-react-counter?name=Ada&start=5')}</div>` +
    `<div id="ssr-mount">${await serverRendered('templates-esm-oc-mount?name=Ada')}</div>` +
    `<oc-component id="esm" href="${registry}templates-esm-counter?name=Bo&start=10"></oc-component>` +
    `<oc-component id="react" href="${registry}templates-react-counter?name=Bo&start=20"></oc-component>` +
    `<oc-component id="handlebars" href="${registry}templates-handlebars-greeting?name=Bo"></oc-component>` +
    `<oc-component id="mount" href="${registry}templates-esm-oc-mount?name=Bo"></oc-component>` +
    // A rendered answer the client inserts: its hydration script runs there too.
    '<oc-component id="rendered-react" href="PAGE/rendered-answer/templates-react-counter?name=Cy&start=30"></oc-component>' +
    // Kept before the client loads: hydration must keep these very nodes, not render new ones.
    "<script>window.ssrButtons=[...document.querySelectorAll('#ssr-esm button, #ssr-react button')]</script>" +
    `<script src="${registry}oc-client/client.js"></script></body></html>`;
  const site = await startPageServer(t, registry);
  site.pages['/'] = page.replace('PAGE/', site.origin);
  const browser = await launchChromium(t);
  const { page: tab, pageErrors } = await openPage(browser);
  const consoleErrors: string[] = [];
  tab.on('console', (message) => {
    // The page server has no favicon; Chromium asks for one anyway.
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) consoleErrors.push(message.text());
  });
  await tab.goto(site.origin);

  const text = (selector: string) => tab.$eval(selector, (element) => element.textContent);
  const clickAndRead = (selector: string) =>
    tab.$eval(selector, (button) => {
      button.click();
      return new Promise<string | null>((resolve) => setTimeout(() => resolve(button.textContent), 50));
    });

  await tab.waitForSelector('#ssr-esm [data-oc-hydrated="true"]');
  await tab.waitForSelector('#ssr-react [data-oc-hydrated="true"]');
  await tab.waitForSelector('#ssr-mount [data-oc-hydrated="true"]');
  t.same(
    await tab.evaluate(() => window.ssrButtons.map((button) => button.isConnected)),
    [true, true],
    'hydration kept the server-rendered buttons of esm and react (the markup matched)',
  );
  t.equal(await text('#ssr-esm p'), 'Hello, Ada!');
  t.equal(await clickAndRead('#ssr-esm button'), 'Clicked 3 times', 'the hydrated Preact counter counts');
  t.equal(await text('#ssr-react p'), 'Hello, Ada!');
  t.equal(await clickAndRead('#ssr-react button'), 'Clicked 6 times', 'the hydrated React counter counts');
  t.equal(await text('#ssr-mount p'), 'Mounted for Ada by templates-esm-oc-mount', "OC's esm form mounts into the server's element with getInitialData() and getSettings()");
  t.equal(await clickAndRead('#ssr-mount button.toggle'), 'on', 'and its toggle works');
  await tab.$eval('#ssr-mount button.shout', (button) => button.click());
  await tab.waitForFunction(() => document.querySelector('#ssr-mount output')?.textContent === 'ADA!');
  t.pass("serverClient calls the component's action through oc.getAction");

  await tab.waitForSelector('#esm section.counter');
  await tab.waitForSelector('#react section.counter');
  await tab.waitForSelector('#mount button.toggle');
  await tab.waitForSelector('#handlebars .greeting');
  t.equal(await text('#esm p'), 'Hello, Bo!', 'an unrendered esm answer renders with Preact');
  t.equal(await clickAndRead('#esm button'), 'Clicked 11 times');
  t.equal(await text('#react p'), 'Hello, Bo!', 'an unrendered react answer renders with createRoot');
  t.equal(await clickAndRead('#react button'), 'Clicked 21 times');
  t.equal(await text('#mount p'), 'Mounted for Bo by templates-esm-oc-mount');
  t.equal(await clickAndRead('#mount button.toggle'), 'on');
  await tab.waitForSelector('#rendered-react [data-oc-hydrated="true"]');
  t.equal(await text('#rendered-react p'), 'Hello, Cy!', 'a rendered react answer inserted by the client');
  t.equal(await clickAndRead('#rendered-react button'), 'Clicked 31 times', 'hydrates as well');
  t.equal(
    await tab.$eval('#handlebars .greeting', (element) => element.querySelector('ul')?.textContent + ' ' + element.querySelector('strong')?.textContent),
    'applepear <b>escaped</b>',
    'an unrendered handlebars answer renders with the runtime the registry serves',
  );

  t.same(
    await tab.evaluate(() => Array.from(document.querySelectorAll('script[src*="/oc-client/vendor/"]'), (script) => script.getAttribute('src'))),
    [`${registry}oc-client/vendor/react.js`, `${registry}oc-client/vendor/handlebars.js`],
    'React is loaded once for the three React components, from the registry, as is the handlebars runtime',
  );
  t.same(pageErrors, [], 'no script error in the page');
  t.same(consoleErrors, [], 'no error in the console (React reports hydration mismatches there)');
});
