import t from 'tap';
import { packagedFixture } from '../helpers/packaged-fixture';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { hostsResidentBytes, until, hostsUp } from './wait-for';

// Each test waits for its own registry's hosts (a recycle, heartbeats): both at once.
t.jobs = 2;

t.test('a host past hostMemoryMb is drained and replaced; its requests are answered', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-intl-hoard'), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 1;
    config.limits.hostMemoryMb = 96;
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  const [first] = registry.pool.hostProcessIds();
  await bystanderRenders(t, started, 'Before', 'the bystander is warm on the host');
  t.ok(hostsResidentBytes(registry) < 96 * 2 ** 20, `a fresh host is within the limit (${Math.round(hostsResidentBytes(registry) / 2 ** 20)} MB)`);
  // 1500 formatters hold about 40 MB outside the heap: the host passes 96 MB and is recycled.
  const { status, body } = await request(`${url}hostile-intl-hoard?count=1500`);
  t.equal(status, 200, 'the request that grew the host is answered');
  t.equal(body.html, '<p>1500 kept, 1,234.5</p>');
  await until(() => registry.pool.hostProcessIds()[0] !== first && registry.pool.stats().hosts === 1);
  await bystanderRenders(t, started, 'After', 'the new host renders');
  t.match((await request(`${url}metrics`)).text, /^tessera_sandbox_host_restarts_total\{reason="memory"\} 1$/m, 'one recycle, counted');
});

t.test('warm versions beyond the byte budget of a host are evicted, least recently used first', async (t) => {
  const started = await startRegistry(t, [BYSTANDER], (config) => {
    config.limits.sandboxHosts = 1;
    config.limits.warmIsolateMbPerHost = 4;
  });
  const { registry, url } = started;
  const packaged = await packagedFixture(fixture('core-static'));
  for (let minor = 0; minor < 8; minor++) {
    const version = `1.${minor}.0`;
    const files = new Map(packaged.files);
    files.set('package.json', Buffer.from(JSON.stringify({ ...packaged.descriptor, version })));
    await registry.storage.writeVersion(packaged.descriptor.name, version, files);
    await registry.catalog.add(packaged.descriptor.name, version);
    t.equal((await request(`${url}${packaged.descriptor.name}/${version}`)).status, 200, `version ${version} renders`);
  }
  // Heaps are read periodically: the coldest versions go until the budget holds.
  await until(() => registry.pool.stats().warmIsolates > 0 && registry.pool.stats().warmIsolates < 8);
  const { warmIsolates, heapBytes } = registry.pool.stats();
  t.ok(warmIsolates < 8, `${warmIsolates} of 8 versions stay warm, holding ${(heapBytes / 2 ** 20).toFixed(1)} MB`);
  await bystanderRenders(t, started, 'After', 'the bystander renders');
});
