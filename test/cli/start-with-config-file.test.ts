import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { packTarball } from '../../src/packager/pack-tarball';
import { packagedFixture } from '../helpers/packaged-fixture';
import { hashToken } from '../../src/publish/tenant-tokens';
import { fixture, request } from '../helpers/start-registry';
import { cliEnv, runCli, startCli, workFolder } from './run-cli';

t.test('tessera start --config: the file\'s port, storage, tokens and limits are used', async (t) => {
  const dir = await workFolder(t);
  await writeFile(
    path.join(dir, 'tessera.json'),
    JSON.stringify({
      port: 0,
      host: '127.0.0.1',
      storage: './store',
      publishTokens: [{ tenant: 'greeters', sha256: hashToken('start-token'), components: ['publish-*'] }],
      limits: { sandboxHosts: 1, publishBytes: 100000 },
    }),
  );
  const registry = startCli(t, ['start', '--config', path.join(dir, 'tessera.json')]);
  const [, url] = await registry.waitFor(/Tessera registry on (http:\/\/127\.0\.0\.1:\d+\/), storage ([^"]+)"/);
  t.match(registry.output(), `storage ${path.join(dir, 'store')}"`, 'storage relative to the file');

  const tarball = await packTarball((await packagedFixture(fixture('publish-greeting'))).files);
  const put = (token: string) =>
    request(`${url}publish-greeting/1.0.0`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' }, body: tarball });
  t.equal((await put('other-token')).status, 401);
  const published = await put('start-token');
  t.equal(published.status, 201);
  t.match((await request(`${url}publish-greeting?name=Ed`)).body.html, 'Hello, Ed!');
});

t.test('tessera start refuses a configuration with bad keys and names each', async (t) => {
  const dir = await workFolder(t);
  const file = path.join(dir, 'tessera.json');
  await writeFile(file, JSON.stringify({ port: 70000, limits: { publishBytes: 'a lot' } }));
  const result = await runCli(['start', '--config', file], { env: cliEnv({ TESSERA_POLL_INTERVAL_SECONDS: 'often' }) });
  t.equal(result.code, 1);
  t.equal(
    result.stderr,
    'Error: The registry configuration is not valid; nothing was started.\n' +
      `  - ${file}: port must be at most 65535\n` +
      `  - ${file}: limits.publishBytes must be an integer\n` +
      '  - TESSERA_POLL_INTERVAL_SECONDS: pollIntervalSeconds must be a number\n',
  );
});
