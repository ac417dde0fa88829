import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { packTarball } from '../../src/packager/pack-tarball';
import { SPOOL_PREFIX } from '../../src/publish/spool-upload';
import { filesUnder } from '../helpers/files-under';
import { BIG_TENANT, largePackage } from '../helpers/large-package';
import { packagedFixture } from '../helpers/packaged-fixture';
import { request } from '../helpers/start-registry';
import { until } from '../sandbox/wait-for';
import { GREETERS_TOKEN, GREETING, packed, put, startPublishRegistry } from './publish-helpers';

const inProgress = async (url: string): Promise<number> => Number(/^tessera_publishes_in_progress (\d+)$/m.exec((await request(`${url}metrics`)).text)?.[1]);

/**
 * The pool still publishes (with one publish thread, a task still holding it would keep this one
 * waiting), no publish is left in it, and storage holds that later version only.
 */
async function nothingLeftBehind(t: Test, url: string, storagePath: string): Promise<void> {
  const later = await put(url, 'publish-greeting/1.0.0', await packed(GREETING));
  t.equal(later.status, 201, 'a later publish succeeds');
  t.equal(await inProgress(url), 0, 'no publish is left in the pool');
  const stored = await filesUnder(storagePath);
  // Besides the catalog's index, the journal names that version only: a refused one leaves no entry;
  // and the name has one claim, the later publish's: a refused one took none. The audit log and its
  // views (by tenant, by component) hold that publish only.
  const others = stored.filter(
    (file) =>
      !file.startsWith('components/publish-greeting/1.0.0/') &&
      !file.startsWith('catalog/index/') &&
      !/^catalog\/audit(-by-tenant\/greeters|-by-component\/publish-greeting)?\//.test(file) &&
      file !== 'catalog/names/publish-greeting/000001.json' &&
      !/^catalog\/changes\/\d+\/\d+-[0-9a-f]+-publish-greeting@1\.0\.0$/.test(file),
  );
  t.same(others, [], 'nothing else was stored');
  // The audit log has that publish only: a refused one is no publish.
  const audited = await Promise.all(stored.filter((file) => file.startsWith('catalog/audit/')).map(async (file) => JSON.parse(await readFile(path.join(storagePath, file), 'utf8')).component));
  t.same(audited, ['publish-greeting@1.0.0'], 'the audit log names the stored publish only');
}

const large = async (version: string): Promise<Map<string, Buffer>> =>
  largePackage(await packagedFixture(GREETING), 'publish-greeting-large', version, BIG_TENANT);

const refusal = (code: string, error: string, details?: object) => ({
  code,
  error,
  name: 'publish-greeting-large',
  requestVersion: '2.0.0',
  ...(details === undefined ? {} : { details }),
});

/** A PUT written by hand on a socket, its headers and `sent` of its body; `destroy()` is the client going away. */
async function startUpload(url: string, headers: Record<string, string>, sent: Buffer): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  const head = Object.entries({ host: `${hostname}:${port}`, authorization: `Bearer ${GREETERS_TOKEN}`, ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(`PUT /publish-greeting-large/2.0.0 HTTP/1.1\r\n${head.join('')}\r\n`);
  socket.write(sent);
  return socket;
}

/** Starts the upload, waits until a publish thread reads it, then the client goes away; answers once the pool is empty again. */
/** The folders of uploads this process's registry is receiving. */
const spooling = async (): Promise<string[]> => (await readdir(os.tmpdir())).filter((name) => name.startsWith(`${SPOOL_PREFIX}${process.pid}-`));

async function stopMidUpload(t: Test, url: string, headers: Record<string, string>, sent: Buffer): Promise<void> {
  const socket = await startUpload(url, headers, sent);
  // The front waits for the rest of the body, which never comes, holding no publish thread.
  await until(async () => (await spooling()).length === 1);
  t.equal(await inProgress(url), 0, 'no publish thread waits for the upload');
  socket.destroy();
  await until(async () => (await spooling()).length === 0);
}

t.test('a broken large package: its coded refusal, nothing stored, no thread left busy', async (t) => {
  const { url, storagePath } = await startPublishRegistry(t);
  const whole = await packTarball(await large('2.0.0'));

  const truncated = await put(url, 'publish-greeting-large/2.0.0', whole.subarray(0, Math.floor(whole.length * 0.6)));
  t.equal(truncated.status, 400);
  t.same(
    truncated.body,
    refusal('PACKAGE_NOT_VALID', 'The package is not a gzip tarball.', {
      problems: ['the gzip body is truncated or damaged: send the whole gzip tarball of the _package folder again'],
    }),
  );

  const tampered = await large('2.0.0');
  const server = tampered.get('server.js')!;
  tampered.set('server.js', Buffer.concat([server, Buffer.from('\n')]));
  const mismatched = await put(url, 'publish-greeting-large/2.0.0', await packTarball(tampered));
  t.equal(mismatched.status, 400);
  t.equal(mismatched.body.code, 'PACKAGE_NOT_VALID');
  t.equal(mismatched.body.error, 'The package of publish-greeting-large@2.0.0 is not valid.');
  t.match(mismatched.body.details.problems, [`server.js is ${server.length + 1} bytes, not /oc/files/dataProvider/size ${server.length}`, /^server\.js has sha1 /]);

  await nothingLeftBehind(t, url, storagePath);
});

t.test('a package over limits.publishBytes, packed or unpacked, raw or multipart: 413, nothing stored, no thread left busy', async (t) => {
  const limit = 2_000_000;
  const { url, storagePath } = await startPublishRegistry(t, (config) => {
    config.limits.publishBytes = limit;
  });
  const tarball = await packTarball(await large('2.0.0'));
  t.ok(tarball.length > limit, `the upload (${tarball.length} bytes) is over the limit`);
  const tooLarge = refusal('PAYLOAD_TOO_LARGE', `The package is over the publish limit of ${limit} bytes.`);

  const announced = await put(url, 'publish-greeting-large/2.0.0', tarball);
  t.equal(announced.status, 413, 'a Content-Length over the limit');
  t.same(announced.body, tooLarge);

  // Without a length, the front counts the bytes as they stream by.
  const chunked = await request(`${url}publish-greeting-large/2.0.0`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${GREETERS_TOKEN}`, 'content-type': 'application/gzip' },
    body: new ReadableStream({
      start(controller) {
        for (let offset = 0; offset < tarball.length; offset += 65536) controller.enqueue(tarball.subarray(offset, offset + 65536));
        controller.close();
      },
    }),
    duplex: 'half',
  } as RequestInit);
  t.equal(chunked.status, 413, 'a chunked body that grows over the limit');
  t.same(chunked.body, tooLarge);

  const form = new FormData();
  form.append('package', new Blob([tarball]), 'package.tar.gz');
  const multipart = await put(url, 'publish-greeting-large/2.0.0', form);
  t.equal(multipart.status, 413, 'a multipart file over the limit');
  t.same(multipart.body, tooLarge);

  // 3 MB of zeros packs into a few kilobytes: the unpacked size is held to the limit as well.
  const bomb = await packTarball(new Map([['public/zeros.txt', Buffer.alloc(3_000_000)]]));
  t.ok(bomb.length < limit);
  const inflated = await put(url, 'publish-greeting-large/2.0.0', bomb);
  t.equal(inflated.status, 413);
  t.same(inflated.body, refusal('PAYLOAD_TOO_LARGE', `The unpacked package is over the publish limit of ${limit} bytes.`));

  await nothingLeftBehind(t, url, storagePath);
});

t.test('a client that stops mid-upload: nothing stored, no publish thread held, its spooled part removed', async (t) => {
  const { url, storagePath } = await startPublishRegistry(t);
  const tarball = await packTarball(await large('2.0.0'));
  const half = tarball.subarray(0, Math.floor(tarball.length / 2));

  // Nobody is left to answer: the pool empties once the thread heard the upload stopped.
  await stopMidUpload(t, url, { 'content-type': 'application/gzip', 'content-length': String(tarball.length) }, half);

  const chunk = (bytes: Buffer) => Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
  await stopMidUpload(t, url, { 'content-type': 'application/gzip', 'transfer-encoding': 'chunked' }, chunk(half));

  const boundary = 'cut-short';
  const part = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="package"; filename="p.tgz"\r\nContent-Type: application/gzip\r\n\r\n`), half]);
  await stopMidUpload(t, url, { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(part.length + 1000) }, part);

  await nothingLeftBehind(t, url, storagePath);
  const whole = await put(url, 'publish-greeting-large/2.0.0', tarball);
  t.equal(whole.status, 201, 'the same package, sent whole, is published');
});
