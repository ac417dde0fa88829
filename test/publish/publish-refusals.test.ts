import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import t from 'tap';
import { packTarball } from '../../src/packager/pack-tarball';
import { hashToken } from '../../src/publish/tenant-tokens';
import { request } from '../helpers/start-registry';
import { filesUnder } from '../helpers/files-under';
import { GREETING, SHOP_TOKEN, packagedFiles, packed, put, startPublishRegistry, withDescriptor } from './publish-helpers';

const sha1 = (text: string | Buffer): string => createHash('sha1').update(text).digest('hex');
const refusal = (code: string, error: string, requestVersion = '1.0.0', details?: object) => ({
  code,
  error,
  name: 'publish-greeting',
  requestVersion,
  ...(details === undefined ? {} : { details }),
});
const notValid = (problems: string[], requestVersion = '1.0.0') =>
  refusal('PACKAGE_NOT_VALID', `The package of publish-greeting@${requestVersion} is not valid.`, requestVersion, { problems });


t.test('tokens: none, unknown, or outside the tenant\'s scope', async (t) => {
  const { url, storagePath } = await startPublishRegistry(t);
  const tarball = await packed(GREETING);
  const unauthorized = refusal('UNAUTHORIZED', 'A valid publish token is required: send "Authorization: Bearer <token>".');

  const none = await put(url, 'publish-greeting/1.0.0', tarball, { token: '' });
  t.equal(none.status, 401);
  t.same(none.body, unauthorized);

  const unknown = await put(url, 'publish-greeting/1.0.0', tarball, { token: 'not-a-configured-token' });
  t.equal(unknown.status, 401);
  t.same(unknown.body, unauthorized);

  const basic = await request(`${url}publish-greeting/1.0.0`, { method: 'PUT', headers: { authorization: 'Basic Z3JlZXRlcnM=', 'content-type': 'application/gzip' }, body: tarball });
  t.equal(basic.status, 401);
  t.same(basic.body, unauthorized);

  const outside = await put(url, 'publish-greeting/1.0.0', tarball, { token: SHOP_TOKEN });
  t.equal(outside.status, 403);
  t.same(outside.body, refusal('FORBIDDEN', 'Tenant "shop" may not publish "publish-greeting"; its token covers: shop-*.'));

  t.same(await filesUnder(storagePath), [], 'nothing was stored');
  t.equal((await request(`${url}publish-greeting`)).status, 404);
});

t.test('a published version is immutable', async (t) => {
  const { url } = await startPublishRegistry(t);
  const tarball = await packed(GREETING);
  t.equal((await put(url, 'publish-greeting/1.0.0', tarball)).status, 201);
  const again = await put(url, 'publish-greeting/1.0.0', tarball);
  t.equal(again.status, 409);
  t.same(again.body, refusal('ALREADY_EXISTS', 'publish-greeting@1.0.0 is already published; versions are immutable.'));
  const dryRun = await put(url, 'publish-greeting/1.0.0', tarball, { query: '?dryRun=true' });
  t.equal(dryRun.status, 409, 'a dry run of an existing version is refused too');
});

t.test('the URL version must be a semantic version equal to the descriptor\'s', async (t) => {
  const { url } = await startPublishRegistry(t);
  const tarball = await packed(GREETING);

  const other = await put(url, 'publish-greeting/1.0.1', tarball);
  t.equal(other.status, 400);
  t.same(other.body, notValid(['/version "1.0.0" is not the URL version "1.0.1"'], '1.0.1'));

  const range = await put(url, 'publish-greeting/1.x', tarball);
  t.equal(range.status, 400);
  t.same(range.body, notValid(['the URL version "1.x" is not a semantic version (major.minor.patch)', '/version "1.0.0" is not the URL version "1.x"'], '1.x'));

  const otherName = await put(url, 'publish-greetings/1.0.0', tarball);
  t.equal(otherName.status, 400);
  t.same(otherName.body, {
    ...notValid(['/name "publish-greeting" is not the URL name "publish-greetings"']),
    name: 'publish-greetings',
    error: 'The package of publish-greetings@1.0.0 is not valid.',
  });
});

t.test('files must be complete and match the hashes and sizes the descriptor records', async (t) => {
  const { url, storagePath } = await startPublishRegistry(t);
  const original = await packagedFiles(GREETING);
  const descriptor = JSON.parse(original.get('package.json')!.toString());
  const { hashKey } = descriptor.oc.files.template;
  const { hashKey: serverHash, size: serverSize } = descriptor.oc.files.dataProvider;

  const missing = new Map(original);
  missing.delete('template.js');
  missing.delete('server.js');
  const incomplete = await put(url, 'publish-greeting/1.0.0', await packTarball(missing));
  t.equal(incomplete.status, 400);
  t.same(incomplete.body, notValid(['template.js is missing', 'server.js is missing (named by /oc/files/dataProvider)']));

  // template.js = wrapper registering the view under its key; the key is the sha1 of the view inside.
  const prefix = `var oc=oc||{};oc.components=oc.components||{};oc.components[${JSON.stringify(hashKey)}]=(function(){`;
  const suffix = ';return __view.default||__view;})();\n';
  const template = original.get('template.js')!.toString();
  t.ok(template.startsWith(prefix) && template.endsWith(suffix), 'template.js has the documented wrapper');
  t.equal(sha1(template.slice(prefix.length, -suffix.length)), hashKey, 'the template key is the sha1 of the view inside the wrapper');

  const tampered = new Map(original);
  const tamperedTemplate = template.replace('Hello', 'Pwned');
  tampered.set('template.js', Buffer.from(tamperedTemplate));
  const server = Buffer.concat([original.get('server.js')!, Buffer.from('\n// changed\n')]);
  tampered.set('server.js', server);
  const mismatched = await put(url, 'publish-greeting/1.0.0', await packTarball(tampered));
  t.equal(mismatched.status, 400);
  t.same(
    mismatched.body,
    notValid([
      `template.js holds a view whose sha1 is ${sha1(tamperedTemplate.slice(prefix.length, -suffix.length))}, not /oc/files/template/hashKey "${hashKey}"`,
      `server.js is ${serverSize + 12} bytes, not /oc/files/dataProvider/size ${serverSize}`,
      `server.js has sha1 ${sha1(server)}, not /oc/files/dataProvider/hashKey "${serverHash}"`,
    ]),
  );

  const rekeyed = await withDescriptor((d) => {
    d.oc.files.template.hashKey = 'abc123';
  });
  const wrongKey = await put(url, 'publish-greeting/1.0.0', await packTarball(rekeyed));
  t.equal(wrongKey.status, 400);
  t.same(wrongKey.body, notValid(['template.js does not register a compiled view under /oc/files/template/hashKey "abc123"']));

  t.same(await filesUnder(storagePath), [], 'nothing was stored');
});

t.test('the descriptor must be a valid packaged descriptor; every problem is listed', async (t) => {
  const { url } = await startPublishRegistry(t);
  const broken = await withDescriptor((d) => {
    d.oc.state = 'retired';
    d.oc.packaged = undefined;
    d.devDependencies = {};
    d.oc.files.template.type = 'oc-template-jade';
  });
  const invalid = await put(url, 'publish-greeting/1.0.0', await packTarball(broken));
  t.equal(invalid.status, 400);
  t.same(
    invalid.body,
    notValid([
      '/oc/state must be one of: active, experimental, deprecated',
      '/devDependencies must include "oc-template-jade-compiler" for template type "oc-template-jade"',
      '/oc/packaged must be true: publish the output of "tessera package", not the source folder',
      '/oc/files/template/type "oc-template-jade" is not a template type this registry renders (oc-template-es6, oc-template-esm, oc-template-react, oc-template-handlebars)',
    ]),
  );

  const noDescriptor = await packagedFiles(GREETING);
  noDescriptor.delete('package.json');
  const missing = await put(url, 'publish-greeting/1.0.0', await packTarball(noDescriptor));
  t.same(missing.body, notValid(['package.json is missing']));

  const notJson = await packagedFiles(GREETING);
  notJson.set('package.json', Buffer.from('{"name": '));
  const unreadable = await put(url, 'publish-greeting/1.0.0', await packTarball(notJson));
  t.equal(unreadable.status, 400);
  t.match(unreadable.body.details.problems, [/^package\.json is not valid JSON: /]);
});

t.test('bodies that are not a package', async (t) => {
  const { url } = await startPublishRegistry(t);
  const noPackage = refusal('PACKAGE_NOT_VALID', 'The request does not carry a package.', '1.0.0', {
    problems: ['send the gzip tarball of the _package folder as the body (Content-Type: application/gzip), or as the one file of a multipart/form-data upload'],
  });

  const json = await put(url, 'publish-greeting/1.0.0', '{"name": "publish-greeting"}', { contentType: 'application/json' });
  t.equal(json.status, 400);
  t.same(json.body, noPackage);

  const text = await put(url, 'publish-greeting/1.0.0', 'hello', { contentType: 'text/csv' });
  t.equal(text.status, 400);
  t.same(text.body, noPackage);

  const empty = await put(url, 'publish-greeting/1.0.0', Buffer.alloc(0));
  t.equal(empty.status, 400);
  t.same(empty.body, noPackage);

  const notGzip = await put(url, 'publish-greeting/1.0.0', Buffer.from('plain bytes, not gzip'));
  t.equal(notGzip.status, 400);
  t.same(notGzip.body, refusal('PACKAGE_NOT_VALID', 'The package is not a gzip tarball.', '1.0.0', {
    problems: ['the body is not gzip-compressed: send the gzip tarball of the _package folder'],
  }));

  const notTar = await put(url, 'publish-greeting/1.0.0', gzipSync('gzip, but no tarball inside'));
  t.equal(notTar.status, 400);
  t.same(notTar.body, refusal('PACKAGE_NOT_VALID', 'The package is not a tarball.', '1.0.0', { problems: ['the gzip content is not a readable tar archive'] }));

  const whole = await packed(GREETING);
  const truncated = await put(url, 'publish-greeting/1.0.0', whole.subarray(0, Math.floor(whole.length / 2)));
  t.equal(truncated.status, 400);
  t.same(truncated.body, refusal('PACKAGE_NOT_VALID', 'The package is not a gzip tarball.', '1.0.0', {
    problems: ['the gzip body is truncated or damaged: send the whole gzip tarball of the _package folder again'],
  }));

  const advice = 'send the gzip tarball of the _package folder as the one file of a well-formed multipart/form-data upload, or as the body (Content-Type: application/gzip)';
  const cutShort = await put(url, 'publish-greeting/1.0.0', '--xyz\r\nContent-Disposition: form-data; name="package"; filename="p.tgz"\r\n\r\nabc', {
    contentType: 'multipart/form-data; boundary=xyz',
  });
  t.equal(cutShort.status, 400, 'a multipart body cut short');
  t.same(cutShort.body, refusal('PACKAGE_NOT_VALID', 'The multipart upload is malformed.', '1.0.0', { problems: [`Unexpected end of multipart data: ${advice}`] }));
  const noBoundary = await put(url, 'publish-greeting/1.0.0', 'garbage', { contentType: 'multipart/form-data' });
  t.equal(noBoundary.status, 400, 'a multipart body without a boundary');
  t.same(noBoundary.body, refusal('PACKAGE_NOT_VALID', 'The multipart upload is malformed.', '1.0.0', { problems: [`Multipart: Boundary not found: ${advice}`] }));

  const form = new FormData();
  form.append('one', new Blob([await packed(GREETING)]), 'one.tar.gz');
  form.append('two', new Blob([await packed(GREETING)]), 'two.tar.gz');
  const twoFiles = await put(url, 'publish-greeting/1.0.0', form);
  t.equal(twoFiles.status, 400);
  t.same(twoFiles.body, noPackage);
});

t.test('packages over limits.publishBytes, packed or unpacked', async (t) => {
  const { url, storagePath } = await startPublishRegistry(t, (config) => {
    config.limits.publishBytes = 1500;
  });
  const tarball = await packed(GREETING);
  t.ok(tarball.length > 1500, `the packed fixture (${tarball.length} bytes) is over the limit`);
  const tooLarge = refusal('PAYLOAD_TOO_LARGE', 'The package is over the publish limit of 1500 bytes.');

  const raw = await put(url, 'publish-greeting/1.0.0', tarball);
  t.equal(raw.status, 413);
  t.same(raw.body, tooLarge);

  const form = new FormData();
  form.append('package', new Blob([tarball]), 'package.tar.gz');
  const multipart = await put(url, 'publish-greeting/1.0.0', form);
  t.equal(multipart.status, 413);
  t.same(multipart.body, tooLarge);

  // 100 kB of zeros packs into a few hundred bytes: the unpacked size is held to the limit as well.
  const files = new Map([['public/zeros.txt', Buffer.alloc(100_000)]]);
  const bomb = await packTarball(files);
  t.ok(bomb.length < 1500);
  const inflated = await put(url, 'publish-greeting/1.0.0', bomb);
  t.equal(inflated.status, 413);
  t.same(inflated.body, refusal('PAYLOAD_TOO_LARGE', 'The unpacked package is over the publish limit of 1500 bytes.'));

  t.same(await filesUnder(storagePath), [], 'nothing was stored');
});

t.test("a component may not take the name of one of the registry's own routes", async (t) => {
  const { url } = await startPublishRegistry(t, (config) => {
    config.publishTokens.push({ tenant: 'ops', sha256: hashToken('ops-secret-token'), components: ['*'] });
  });
  const files = await withDescriptor((d) => {
    d.name = 'metrics';
  });
  const taken = await put(url, 'metrics/1.0.0', await packTarball(files), { token: 'ops-secret-token' });
  t.equal(taken.status, 400);
  t.same(taken.body, {
    code: 'PACKAGE_NOT_VALID',
    error: 'The package of metrics@1.0.0 is not valid.',
    name: 'metrics',
    requestVersion: '1.0.0',
    details: { problems: ['/name "metrics" is taken by the registry\'s own route /metrics'] },
  });
  const scrape = await request(`${url}metrics`);
  t.match(scrape.text, /^# HELP tessera_/m, '/metrics still answers the registry\'s metrics');
  t.same((await request(url)).body.components, [], 'nothing was published');
});
