import { gzipSync } from 'node:zlib';
import t from 'tap';
import { tarEntries } from '../../src/packager/pack-tarball';
import { request } from '../helpers/start-registry';
import { filesUnder } from '../helpers/files-under';
import { GREETING, SHOP_TOKEN, packed, put, startPublishRegistry } from './publish-helpers';
import { ZEROS_19_MB, nestedArrays, packedWithServer } from './server-script-packages';

/**
 * A tenant's package whose `server.js` is past what a publish parses is refused before any parse,
 * with a coded answer naming the bound, and costs the one publish thread little: another tenant's
 * publish sent at the same moment is answered, and stored. No timing is asserted: on a busy
 * machine every publish is slower, and only the answers are the behaviour.
 */

const refusal = (code: string, error: string, details: object) => ({ code, error, name: 'shop-greeting', requestVersion: '1.0.0', details });

t.test("19 MB of `0;` lines, four at once as dry runs, are refused by size while another tenant's publish goes through", async (t) => {
  const { url, storagePath } = await startPublishRegistry(t);
  const script = ZEROS_19_MB();
  const attack = await packedWithServer('shop-greeting', '1.0.0', script);
  t.ok(attack.length < 100_000, `the upload is ${attack.length} bytes`);

  const attacks = Array.from({ length: 4 }, () => put(url, 'shop-greeting/1.0.0', attack, { token: SHOP_TOKEN, query: '?dryRun=true' }));
  const bystander = put(url, 'publish-greeting/1.0.0', await packed(GREETING));

  const answers = await Promise.all(attacks);
  const expected = refusal('SERVER_SCRIPT_TOO_LARGE', `server.js is ${script.length} bytes; this registry checks server scripts of at most 5242880 bytes (limits.serverScriptBytes).`, {
    bound: 'serverScriptBytes',
    limit: 5242880,
  });
  t.same(
    answers.map((answer) => [answer.status, answer.body]),
    answers.map(() => [413, expected]),
  );
  const published = await bystander;
  t.equal(published.status, 201, 'the other tenant is answered');
  t.same(published.body, { ok: true, name: 'publish-greeting', version: '1.0.0' });
  const rendered = await request(`${url}publish-greeting/1.0.0?name=Ada`);
  t.equal(rendered.status, 200);
  t.match(rendered.body.html, 'Hello, Ada!');
  t.notOk((await filesUnder(storagePath)).some((file) => file.includes('shop-greeting')), 'nothing of the refused package was stored');
});

t.test('a server script nested deeper than the bound, or with more lines, is refused naming that bound', async (t) => {
  const { url } = await startPublishRegistry(t);

  const nested = await put(url, 'shop-greeting/1.0.0', await packedWithServer('shop-greeting', '1.0.0', nestedArrays(100_000)), { token: SHOP_TOKEN });
  t.equal(nested.status, 422);
  t.same(nested.body, refusal('PACKAGE_TOO_COMPLEX', 'server.js nests brackets more than 256 deep (limits.serverScriptNesting).', { bound: 'serverScriptNesting', limit: 256 }));

  const lines = await put(url, 'shop-greeting/1.0.0', await packedWithServer('shop-greeting', '1.0.0', Buffer.from('0;\n'.repeat(300_000))), { token: SHOP_TOKEN });
  t.equal(lines.status, 422);
  t.same(
    lines.body,
    refusal('PACKAGE_TOO_COMPLEX', 'server.js has more than 250000 lines (limits.serverScriptLines); bundle it minified, or split what it holds.', { bound: 'serverScriptLines', limit: 250000 }),
  );

  // Nesting the scan of brackets does not see still meets the parser's stack, answered the same way.
  const unary = await put(url, 'shop-greeting/1.0.0', await packedWithServer('shop-greeting', '1.0.0', Buffer.from(`module.exports = ${'!'.repeat(1_000_000)}0;\n`)), { token: SHOP_TOKEN });
  t.equal(unary.status, 422);
  t.same(
    unary.body,
    refusal('PACKAGE_TOO_COMPLEX', 'server.js nests its code deeper than the registry can parse (unary operators, chained assignments, arrows and brackets all count).', {
      bound: 'serverScriptNesting',
    }),
  );

  const fine = await put(url, 'shop-greeting/1.0.0', await packedWithServer('shop-greeting', '1.0.0', nestedArrays(200)), { token: SHOP_TOKEN, query: '?dryRun=true' });
  t.same([fine.status, fine.body], [200, { ok: true, name: 'shop-greeting', version: '1.0.0', dryRun: true }], 'nesting within the bound parses');
});

t.test("an oversized server script is refused by its tarball entry's header, before its content is read", async (t) => {
  const { url } = await startPublishRegistry(t);
  // The header of a 19 MB server.js and its first kilobyte; the rest of the upload never comes.
  const tar = tarEntries(new Map([['server.js', ZEROS_19_MB()]]));
  const cut = gzipSync(tar.subarray(0, 512 + 1024));
  const answer = await put(url, 'shop-greeting/1.0.0', cut, { token: SHOP_TOKEN });
  t.equal(answer.status, 413);
  t.same(answer.body.details, { bound: 'serverScriptBytes', limit: 5242880 });
});
