import t from 'tap';
import { request, startRegistry, type StartedRegistry } from '../helpers/start-registry';
import { storageWithComponents, type CatalogEntry } from '../helpers/many-components';

const COMPONENTS = 1000;
/** `part-0001` … `part-1000`: one in ten a chart, the others cards; a third each acme's, globex's, or stored without a publisher. */
const ENTRIES: CatalogEntry[] = Array.from({ length: COMPONENTS }, (_, index) => {
  const i = index + 1;
  return {
    name: `part-${String(i).padStart(4, '0')}`,
    description: i % 10 === 0 ? 'A sales chart for dashboards' : 'A small greeting card',
    tenant: [undefined, 'acme', 'globex'][i % 3],
  };
});

const HTML = { headers: { accept: 'text/html' } };
const names = (html: string) => [...html.matchAll(/<h2><a href="[^"]*">([^<]+)<\/a><\/h2>/g)].map((match) => match[1]);
const count = (html: string) => /<p id="count"[^>]*>([^<]*)<\/p>/.exec(html)?.[1];
const pager = (html: string) => /<nav class="pager"[^>]*>(.*?)<\/nav>/.exec(html)?.[1] ?? '';
const part = (i: number) => `part-${String(i).padStart(4, '0')}`;
const parts = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => part(from + k));

// One catalog of a thousand for the file: its tests only read.
let started: Promise<StartedRegistry> | undefined;
const registry = () =>
  (started ??= storageWithComponents(t, ENTRIES).then((storagePath) =>
    startRegistry(t, [], (config) => {
      config.storagePath = storagePath;
    }),
  ));

t.test('the web UI lists a thousand components one small page at a time, searched on the server', async (t) => {
  const { url } = await registry();

  const first = await request(url, HTML);
  t.equal(first.status, 200);
  t.ok(Buffer.byteLength(first.text) < 60_000, `one page of ${COMPONENTS} components is ${Buffer.byteLength(first.text)} bytes`);
  t.same(names(first.text), parts(1, 50));
  t.equal(count(first.text), '1000 components; showing 1–50');
  t.equal(
    pager(first.text),
    `<span class="prev" aria-disabled="true">← Previous</span><span class="current" aria-current="page">Page 1 of 20</span><a class="next" rel="next" href="${url}?page=2">Next →</a>`,
  );
  t.match(first.text, '<p class="meta">Tenant <span class="tenant">acme</span> · Published <time datetime="2026-01-01T00:00:00.000Z">', 'the tenant that published it');
  t.match(first.text, /<h2><a href="[^"]*">part-0003<\/a><\/h2>.*?<span class="tenant">—<\/span>/, 'a dash for a version without a publisher');

  const third = await request(`${url}?page=3&per=20`, HTML);
  t.same(names(third.text), parts(41, 60), '?per= sets the page size');
  t.match(pager(third.text), `<a class="prev" rel="prev" href="${url}?page=2&amp;per=20">← Previous</a>`);

  const charts = await request(`${url}?q=Sales+CHART&page=2`, HTML);
  t.same(names(charts.text), Array.from({ length: 50 }, (_, k) => part(510 + k * 10)), 'every word, in any case');
  t.equal(count(charts.text), '100 of 1000 components match; showing 51–100');
  t.match(pager(charts.text), `href="${url}?q=Sales+CHART">← Previous</a>`, 'the links keep the search');

  const globex = await request(`${url}?q=globex&per=200`, HTML);
  t.equal(count(globex.text), '333 of 1000 components match; showing 1–200', 'the tenant is searched too');

  const none = await request(`${url}?q=nothing-like-this`, HTML);
  t.same([names(none.text), count(none.text), pager(none.text)], [[], '0 of 1000 components match', '']);

  const json = await request(url);
  t.equal(json.body.components.length, COMPONENTS, "OC's JSON list still names every component");
});

t.test('a page past the end is the last page; a page or size that is no positive integer is a coded 400', async (t) => {
  const { url } = await registry();

  const past = await request(`${url}?page=99`, HTML);
  t.equal(past.status, 200);
  t.same(names(past.text), parts(951, 1000), 'the last page');
  t.match(pager(past.text), 'Page 20 of 20');
  const pastSearch = await request(`${url}?q=chart&page=5`, HTML);
  t.same(names(pastSearch.text), Array.from({ length: 50 }, (_, k) => part(510 + k * 10)), "a search's last page");

  const refusals: Array<[query: string, name: string, problem: string, sentence: string]> = [
    ['page=0', 'page', 'must be >= 1', 'Query parameter "page" must be >= 1.'],
    ['page=-2', 'page', 'must be >= 1', 'Query parameter "page" must be >= 1.'],
    ['page=two', 'page', 'must be integer', 'Query parameter "page" must be integer.'],
    ['page=1.5', 'page', 'must be integer', 'Query parameter "page" must be integer.'],
    ['page=', 'page', 'must be integer', 'Query parameter "page" must be integer.'],
    ['page=1&page=2', 'page', 'given more than once', 'Query parameter "page" must be given once.'],
    ['per=0', 'per', 'must be >= 1', 'Query parameter "per" must be >= 1.'],
    ['per=201', 'per', 'must be <= 200', 'Query parameter "per" must be <= 200.'],
    ['per=all', 'per', 'must be integer', 'Query parameter "per" must be integer.'],
  ];
  for (const [query, name, problem, sentence] of refusals) {
    const answer = await request(`${url}?${query}`, HTML);
    t.same([answer.status, answer.body], [400, { code: 'NOT_VALID_REQUEST', error: sentence, name: '', requestVersion: '', details: { parameters: [{ name, problem }] } }], `?${query}`);
  }
});
