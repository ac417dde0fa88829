import t from 'tap';
import { packagedFixture } from '../helpers/packaged-fixture';
import { fixture, request, startRegistry, type StartedRegistry } from '../helpers/start-registry';

// A sandbox host disposes an isolate that spends CPU with no execution in it (code that outlived its
// answer). Building a version runs its top-level code with no execution either: a component whose
// view and module take a while to load must not be taken for one, neither in a new isolate nor as a
// new version beside an idle warm one, nor once the build is over.

/** Stores and announces another version of a fixture, its server bundle replaced when `server` is given. */
async function addVersion(started: StartedRegistry, dir: string, version: string, server?: string): Promise<void> {
  const packaged = await packagedFixture(dir);
  const files = new Map(packaged.files);
  files.set('package.json', Buffer.from(JSON.stringify({ ...packaged.descriptor, version })));
  if (server !== undefined) files.set('server.js', Buffer.from(server));
  await started.registry.storage.writeVersion(packaged.descriptor.name, version, files);
  await started.registry.catalog.add(packaged.descriptor.name, version);
}

t.test('a version whose view and module take 600 ms each to load is built and renders, as is its next version beside it', async (t) => {
  const NAME = 'core-slow-start';
  const started = await startRegistry(t, [fixture(NAME)], (config) => {
    config.limits.sandboxHosts = 1;
  });
  const first = await request(`${started.url}${NAME}/1.0.0`);
  t.same({ status: first.status, html: first.body.html }, { status: 200, html: '<p>table built</p>' }, 'the first version, in a new isolate');

  await addVersion(started, fixture(NAME), '1.1.0');
  const next = await request(`${started.url}${NAME}/1.1.0`);
  t.same({ status: next.status, html: next.body.html }, { status: 200, html: '<p>table built</p>' }, 'the next version, built in the idle isolate of the first');
});

t.test('a version that works 600 ms at load and then fails leaves the warm version beside it warm', async (t) => {
  const NAME = 'hostile-memory-array'; // counts the requests its isolate served
  const started = await startRegistry(t, [fixture(NAME)], (config) => {
    config.limits.sandboxHosts = 1;
  });
  const served = async (version: string) => (await request(`${started.url}${NAME}/${version}`)).body.html;
  t.equal(await served('1.0.0'), '<p>served 1</p>');

  await addVersion(started, fixture(NAME), '1.1.0', 'const started = Date.now(); while (Date.now() - started < 600); throw new Error("no table");');
  const broken = await request(`${started.url}${NAME}/1.1.0`);
  t.same({ status: broken.status, body: broken.body }, {
      status: 500,
      body: { code: 'GENERIC_ERROR', error: `Component "${NAME}" failed: no table`, name: NAME, requestVersion: '1.1.0' },
    }, 'the failing version answers its failure');
  // The build's CPU is not idle time after it either: the next checks leave the isolate alone.
  await new Promise((resolve) => setTimeout(resolve, 1200));
  t.equal(await served('1.0.0'), '<p>served 2</p>', 'the first version is still warm in the same isolate');
});
