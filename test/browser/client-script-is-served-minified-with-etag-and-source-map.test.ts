import t from 'tap';
import { request, startRegistry } from '../helpers/start-registry';

t.test('GET /oc-client/client.js serves the minified client, cacheable by ETag or by a versioned URL, with its source map', async (t) => {
  const { url } = await startRegistry(t, []);

  const script = await request(`${url}oc-client/client.js`);
  t.equal(script.status, 200);
  t.equal(script.headers.get('content-type'), 'application/javascript; charset=utf-8');
  t.equal(script.headers.get('cache-control'), 'public, max-age=300');
  const etag = script.headers.get('etag')!;
  t.match(etag, /^"[0-9a-f]{32}"$/);
  t.ok(script.text.endsWith('\n//# sourceMappingURL=client.js.map\n'), 'it names its source map');
  t.ok(script.text.split('\n').length <= 4 && script.text.length < 30_000, `minified (${script.text.length} bytes)`);
  t.notOk(/__esm|__commonJS/.test(script.text), 'bundled as plain modules, without lazy initialisers');

  const again = await request(`${url}oc-client/client.js`, { headers: { 'if-none-match': `W/"other", ${etag}` } });
  t.equal(again.status, 304, 'unchanged: 304');
  t.equal(again.text, '');
  t.equal(again.headers.get('etag'), etag);

  const version = etag.slice(1, 17);
  const versioned = await request(`${url}oc-client/client.js?v=${version}`);
  t.equal(versioned.headers.get('cache-control'), 'public, max-age=31536000, immutable', 'the versioned URL is cached for good');
  t.equal(versioned.text, script.text);
  const stale = await request(`${url}oc-client/client.js?v=0000000000000000`);
  t.equal(stale.headers.get('cache-control'), 'public, max-age=300', 'another version is not promised to last');

  const map = await request(`${url}oc-client/client.js.map`);
  t.equal(map.status, 200);
  t.equal(map.headers.get('content-type'), 'application/json; charset=utf-8');
  t.equal(map.body.version, 3);
  t.ok(
    map.body.sources.some((source: string) => source.endsWith('src/browser-client/render-by-href.ts')),
    'the map leads to the TypeScript sources',
  );
  t.equal(map.body.sources.length, map.body.sourcesContent.length, 'with their content');
});
