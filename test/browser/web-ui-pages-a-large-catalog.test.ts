import t from 'tap';
import { startRegistry } from '../helpers/start-registry';
import { storageWithComponents, type CatalogEntry } from '../helpers/many-components';
import { launchChromium, openPage } from './chromium';

/** `tile-001` … `tile-120`: one in five a weather map; acme's (i % 4 is 1 or 2: 60 of them), globex's (3), or without a publisher (0). */
const tile = (i: number) => `tile-${String(i).padStart(3, '0')}`;
const tenantOf = (i: number) => [undefined, 'acme', 'acme', 'globex'][i % 4];
const ENTRIES: CatalogEntry[] = Array.from({ length: 120 }, (_, index) => {
  const i = index + 1;
  return { name: tile(i), description: i % 5 === 0 ? 'A weather map' : 'A price tag', tenant: tenantOf(i) };
});
const tiles = (numbers: number[]) => numbers.map(tile);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);

t.test('the web UI pages a large catalog: 50 a page with links between pages, searched on the server as one types', async (t) => {
  const storagePath = await storageWithComponents(t, ENTRIES);
  const { url: registry } = await startRegistry(t, [], (config) => {
    config.storagePath = storagePath;
  });
  const browser = await launchChromium(t);
  const { page, pageErrors } = await openPage(browser);
  const shown = () => page.locator('#components li h2 a').allTextContents();

  await page.goto(registry);
  t.same(await shown(), tiles(range(1, 50)), 'page 1 shows the first 50');
  t.equal(await page.textContent('#count'), '120 components; showing 1–50');
  t.equal(await page.textContent('.pager .current'), 'Page 1 of 3');
  t.equal(await page.getAttribute('.pager .prev', 'aria-disabled'), 'true', 'no page before the first');
  t.same(
    (await page.locator('#components .tenant').allTextContents()).slice(0, 4),
    ['acme', 'acme', 'globex', '—'],
    "each component's tenant, a dash without one",
  );

  await page.click('.pager a[rel="next"]');
  await page.waitForURL(`${registry}?page=2`);
  t.same(await shown(), tiles(range(51, 100)), 'the next link shows the next 50');

  await page.goto(`${registry}?page=3`);
  t.same(await shown(), tiles(range(101, 120)), 'page 3 shows the last 20');
  t.equal(await page.textContent('#count'), '120 components; showing 101–120');
  t.equal(await page.getAttribute('.pager .next', 'aria-disabled'), 'true', 'no page after the last');
  t.equal(await page.getAttribute('.pager a[rel="prev"]', 'href'), `${registry}?page=2`);

  await page.fill('#q', 'ACME');
  await page.waitForSelector('#results[data-q="ACME"]');
  const acme = range(1, 120).filter((i) => tenantOf(i) === 'acme');
  t.same(await shown(), tiles(acme.slice(0, 50)), "typing searches the tenants on the server, from the search's first page");
  t.equal(await page.textContent('#count'), '60 of 120 components match; showing 1–50');
  t.equal(page.url(), `${registry}?q=ACME`, 'the search is in the address, the page is not');

  await page.click('.pager a[rel="next"]');
  await page.waitForURL(`${registry}?q=ACME&page=2`);
  t.same(await shown(), tiles(acme.slice(50)), 'paging follows the search');
  t.same(new Set(await page.locator('#components .tenant').allTextContents()), new Set(['acme']));
  t.equal(await page.inputValue('#q'), 'ACME', 'the search box keeps the search');

  await page.fill('#q', 'weather acme');
  await page.waitForSelector('#results[data-q="weather acme"]');
  t.same(await shown(), tiles(acme.filter((i) => i % 5 === 0)), 'every word narrows the list: names, descriptions and tenants');
  t.equal(await page.textContent('#count'), '12 of 120 components match');
  t.equal(await page.locator('.pager').count(), 0, 'one page needs no links');

  await page.goto(`${registry}?q=map&page=9`);
  t.same(await shown(), tiles(range(1, 120).filter((i) => i % 5 === 0)), 'a page past the end of a search is its last page');
  t.same(pageErrors, []);
});
