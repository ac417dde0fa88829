import t from 'tap';
import { packagedFixture } from '../helpers/packaged-fixture';
import { fixture, request, startRegistry } from '../helpers/start-registry';

const NAME = 'core-slow-start';

// A sandbox host disposes an isolate that spends CPU with no execution in it (code that outlived its
// answer). Building a version runs its top-level code with no execution either: a component whose
// module takes a while to load must not be taken for one, neither in a new isolate nor as a new
// version beside an idle warm one.
t.test('a version whose module takes 700 ms to load is built and renders, as is its next version beside it', async (t) => {
  const { registry, url } = await startRegistry(t, [fixture(NAME)], (config) => {
    config.limits.sandboxHosts = 1;
  });
  const first = await request(`${url}${NAME}/1.0.0`);
  t.same({ status: first.status, html: first.body.html }, { status: 200, html: '<p>table built</p>' }, 'the first version, in a new isolate');

  const packaged = await packagedFixture(fixture(NAME));
  const files = new Map(packaged.files);
  files.set('package.json', Buffer.from(JSON.stringify({ ...packaged.descriptor, version: '1.1.0' })));
  await registry.storage.writeVersion(NAME, '1.1.0', files);
  await registry.catalog.add(NAME, '1.1.0');
  const next = await request(`${url}${NAME}/1.1.0`);
  t.same({ status: next.status, html: next.body.html }, { status: 200, html: '<p>table built</p>' }, 'the next version, built in the idle isolate of the first');
});
