import t from 'tap';
import { fixture, startRegistry } from '../helpers/start-registry';
import { launchChromium, openPage } from './chromium';
import type { PageDocument, PageElement } from './page-globals';

declare const document: PageDocument;

const visibleNames = (elements: PageElement[]) => elements.filter((element) => !element.hidden).map((element) => element.querySelector('h2 a')!.textContent);

t.test("the registry's web UI lists and searches components, shows one, and previews it with its parameters", async (t) => {
  const { url: registry } = await startRegistry(t, [fixture('browser-greeting'), fixture('browser-nesting'), fixture('browser-failing')]);
  const browser = await launchChromium(t);
  const { page, pageErrors } = await openPage(browser, { colorScheme: 'dark' });

  await page.goto(registry);
  t.equal(await page.title(), 'Tessera: components');
  t.same(
    await page.$$eval('#components li', (items) => items.map((item) => [item.querySelector('h2 a').textContent, item.querySelector('.version').textContent, item.querySelector('.badge').textContent])),
    [
      ['browser-failing', '1.0.0', 'deprecated'],
      ['browser-greeting', '1.0.0', 'active'],
      ['browser-nesting', '1.0.0', 'experimental'],
    ],
    'every component with its latest version and state',
  );
  t.equal(await page.textContent('#count'), '3 components');

  await page.fill('#q', 'GREET');
  await page.waitForSelector('#results[data-q="GREET"]');
  t.same(await page.$$eval('#components li', visibleNames), ['browser-greeting'], 'the server searches while one types, ignoring case');
  t.equal(await page.textContent('#count'), '1 of 3 components match');
  t.equal(new URL(page.url()).searchParams.get('q'), 'GREET', 'the search stays in the address');
  await page.fill('#q', 'throws');
  await page.waitForSelector('#results[data-q="throws"]');
  t.same(await page.$$eval('#components li', visibleNames), ['browser-failing'], 'descriptions are searched too');

  await page.goto(`${registry}?q=nest`);
  t.same(await page.$$eval('#components li', visibleNames), ['browser-nesting'], '?q= filters on the server');

  await page.goto(registry);
  await page.click('#components a:text-is("browser-greeting")');
  await page.waitForURL(`${registry}browser-greeting/~info`);
  t.equal(await page.textContent('h1'), 'browser-greeting1.0.0active');
  t.same(await page.$$eval('dl.facts dt', (terms) => terms.map((term) => term.textContent)), ['Publisher', 'Published', 'Template']);
  t.same(await page.$$eval('ul.versions a', (links) => links.map((link) => [link.textContent, link.getAttribute('aria-current')])), [['1.0.0', 'page']]);
  t.same(
    await page.$$eval('table tbody tr', (rows) => rows.map((row) => [...row.querySelectorAll('th,td')].map((cell) => cell.textContent))),
    [['name', 'string', 'no', '"World"', '—', 'Who to greet', '"Ada"']],
    'each parameter with its type, mandatory, default, allowed values, description and example',
  );

  await page.waitForSelector('#preview-status[data-state="rendered"]');
  t.equal(await page.textContent('#preview-status'), 'Rendered browser-greeting 1.0.0.');
  t.equal(await page.textContent('#preview-href'), `${registry}browser-greeting/1.0.0?name=Ada`, 'the form starts from the example');
  const preview = page.frameLocator('#preview');
  t.equal(await preview.locator('p.greeting').textContent(), 'Hello, Ada!', 'the preview shows the component, rendered by the browser client');
  t.equal(await page.$eval('#preview', (frame) => frame.getAttribute('sandbox')), 'allow-scripts', 'tenant HTML runs in a sandboxed frame, not as the registry page');

  await page.fill('#parameter-name', 'Grace');
  await page.click('#preview-form button');
  await preview.locator('p.greeting:text-is("Hello, Grace!")').waitFor();
  t.equal(await page.textContent('#preview-href'), `${registry}browser-greeting/1.0.0?name=Grace`, 'the form renders it again with new parameters');

  await page.goto(`${registry}browser-failing/1.0.0/~info`);
  await page.waitForSelector('#preview-status[data-state="failed"]');
  t.equal(await page.textContent('#preview-status'), 'Failed with 500 GENERIC_ERROR: Component "browser-failing" failed: The handler always fails');
  t.equal(await page.textContent('section[aria-labelledby="parameters-title"] p'), 'This component takes no parameters.');
  t.same(pageErrors, []);
  t.equal(await page.evaluate(() => document.querySelectorAll('link[rel="stylesheet"], script[src]').length), 0, 'no external asset');
});
