import { readFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { REPO_ROOT, request } from '../helpers/start-registry';
import { NODE_FLAGS } from '../../src/node-flags';
import { cliEnv, startCli, workFolder } from './run-cli';

// `npm start` is the newcomer's first command: it must come up with the demo components published,
// in one process started with the registry's flags (bin/tessera.js would start a second one otherwise).
t.test('npm start runs "tessera start --with-demo", which publishes and serves every demo component', async (t) => {
  const scripts = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  t.equal(scripts['start'], `node ${NODE_FLAGS.join(' ')} bin/tessera.js start --with-demo`);

  const dir = await workFolder(t);
  const registry = startCli(t, ['start', '--with-demo', '--port', '0', '--storage', dir], { env: cliEnv({ TESSERA_HOST: '127.0.0.1', TESSERA_LIMITS_SANDBOX_HOSTS: '1' }) });
  const [, url] = await registry.waitFor(/Tessera registry on (http:\/\/127\.0\.0\.1:\d+\/)/);
  const list = await request(url);
  t.same(
    list.body.components,
    ['esm-counter', 'hello-world', 'legacy-clock', 'price-tag', 'react-toggle', 'static-banner', 'weather-badge', 'welcome-panel'].map((name) => `${url}${name}`),
  );
  const before = registry.output();
  const hello = await request(`${url}hello-world?name=Ada`);
  t.equal(hello.status, 200);
  t.match(hello.body.html, '<p class="hello-world">Hello, Ada!</p>');
  const panel = await request(`${url}welcome-panel?name=Ada&city=Porto`);
  t.equal(panel.status, 200, 'a component with nested renders');
  t.equal((await request(`${url}no-such-component`)).status, 404);
  // The access log is off by default (logRequests): give a line that should not be written the time to show up.
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(registry.output().slice(before.length), '', 'answered requests and nested renders write no log line');
});
