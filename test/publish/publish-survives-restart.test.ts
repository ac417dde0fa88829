import t from 'tap';
import { defaultConfig } from '../../src/config/config';
import { createRegistry } from '../../src/registry';
import { request } from '../helpers/start-registry';
import { GREETING, packed, publishTokens, put, startPublishRegistry } from './publish-helpers';

t.test('a registry restarted on the same storage serves the versions published before', async (t) => {
  const first = await startPublishRegistry(t);
  for (const version of ['1.0.0', '1.1.0']) t.equal((await put(first.url, `publish-greeting/${version}`, await packed(GREETING, version))).status, 201);
  const before = (await request(`${first.url}publish-greeting/1.0.0/~info`)).body;
  await first.registry.close();

  const config = defaultConfig();
  config.port = 0;
  config.storagePath = first.storagePath;
  config.pollIntervalSeconds = 0;
  config.limits.sandboxHosts = 1;
  config.publishTokens = publishTokens();
  const second = await createRegistry(config);
  t.teardown(() => second.close());
  const url = await second.listen();

  const info = await request(`${url}publish-greeting/1.0.0/~info`);
  t.equal(info.status, 200);
  t.same(info.body, before, 'the same descriptor, publisher included');
  t.same(info.body.allVersions, ['1.0.0', '1.1.0']);
  const latest = await request(`${url}publish-greeting?name=Di`);
  t.equal(latest.body.version, '1.1.0');
  t.match(latest.body.html, '<p class="greeting">Hello, Di!</p>');
  const again = await put(url, 'publish-greeting/1.1.0', await packed(GREETING, '1.1.0'));
  t.equal(again.status, 409, 'still immutable after the restart');
});
