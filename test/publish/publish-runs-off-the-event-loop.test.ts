import { Readable } from 'node:stream';
import t from 'tap';
import { defaultConfig } from '../../src/config/config';
import * as checking from '../../src/publish/check-package';
import { publishPackage } from '../../src/publish/publish-package';
import { serverScriptBounds } from '../../src/publish/server-script-bounds';
import * as unpacking from '../../src/publish/unpack-package';
import { packTarball } from '../../src/packager/pack-tarball';
import { packagedFixture } from '../helpers/packaged-fixture';
import { BIG_TENANT, largePackage } from '../helpers/large-package';
import { request } from '../helpers/start-registry';
import { GREETING, put, startPublishRegistry } from './publish-helpers';

/**
 * The registry runs in this test's process, its front on this thread. Each function that reads a
 * package (inflating and parsing the tarball, checking files, hashes and the dependency policy) is
 * watched here: modules are loaded once per thread, so a call made on this thread goes through
 * these exports, and one made in a publish thread goes through that thread's own copy.
 */
const calledHere: string[] = [];
function watch(module: object, name: string): void {
  const exports = module as Record<string, (...args: unknown[]) => unknown>;
  const original = exports[name]!;
  exports[name] = (...args: unknown[]) => {
    calledHere.push(name);
    return original(...args);
  };
}
watch(unpacking, 'unpackPackage');
watch(checking, 'checkPackage');

const inProgress = async (url: string): Promise<number> => Number(/^tessera_publishes_in_progress (\d+)$/m.exec((await request(`${url}metrics`)).text)?.[1]);

t.test("a large package is unpacked, checked and stored by a publish thread, never on the front's thread", async (t) => {
  const { url, registry } = await startPublishRegistry(t);
  const files = largePackage(await packagedFixture(GREETING), 'publish-greeting-large', '2.0.0', BIG_TENANT);
  const tarball = await packTarball(files);
  t.ok(tarball.length > 4_000_000, `the upload is ${tarball.length} bytes`);
  const another = await packTarball(largePackage(await packagedFixture(GREETING), 'publish-greeting-large', '2.0.1', BIG_TENANT));
  // Packaging the fixture, when it was not cached yet, checked it on this thread: only what follows counts.
  calledHere.length = 0;

  const published = await put(url, 'publish-greeting-large/2.0.0', tarball);
  t.equal(published.status, 201);
  t.same(published.body, { ok: true, name: 'publish-greeting-large', version: '2.0.0' });
  const rendered = await request(`${url}publish-greeting-large/2.0.0?name=Ada`);
  t.equal(rendered.status, 200);
  t.match(rendered.body.html, '<p class="greeting">Hello, Ada!</p>');
  const asset = await fetch(`${url}publish-greeting-large/2.0.0/static/public/large/asset-3.bin`);
  t.ok(Buffer.from(await asset.arrayBuffer()).equals(files.get('public/large/asset-3.bin')!), 'a static file is stored whole');

  t.same(calledHere, [], 'the front thread never unpacked nor checked the package');
  t.equal(await inProgress(url), 0, 'and no publish is left in the pool');

  // The watch sees this thread's calls: the same publish, run here (dry), goes through both functions.
  await publishPackage(
    registry.storage,
    { name: 'publish-greeting-large', version: '2.0.1', tenant: 'greeters', tokenId: 'config:greeters', storedToken: false, dryRun: true },
    Readable.from([another]),
    { maxBytes: 20 * 1024 * 1024, dependencyPolicy: { deny: [], allow: [] }, serverScript: serverScriptBounds(defaultConfig().limits), defaultTenant: 'default' },
  );
  t.same(calledHere, ['unpackPackage', 'checkPackage'], 'run on this thread, the same code is seen');
});
