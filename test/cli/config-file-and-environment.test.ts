import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { defaultConfig } from '../../src/config/config';
import configSchema from '../../src/config/config-schema.json';
import { ConfigError, loadConfig } from '../../src/config/load-config';
import { workFolder } from './run-cli';

const SHA = 'a'.repeat(64);

async function folder(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = await workFolder(t);
  return dir;
}

function problemsOf(load: () => unknown): string[] {
  try {
    load();
  } catch (error) {
    if (error instanceof ConfigError) return error.details.problems;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

t.test('a file, then TESSERA_* variables, over the defaults', async (t) => {
  const dir = await folder(t);
  const file = path.join(dir, 'tessera.json');
  await writeFile(
    file,
    JSON.stringify({
      port: 4000,
      baseUrl: 'https://components.example.com',
      storage: 'data',
      env: { name: 'production', region: 'eu' },
      publishTokens: [{ tenant: 'checkout', sha256: SHA, components: ['checkout-*'] }],
      limits: { publishBytes: 1000, executionTimeoutMs: 300 },
    }),
  );
  const config = loadConfig({ file, env: { TESSERA_PORT: '5000', TESSERA_LIMITS_MAX_BATCH_SIZE: '7', TESSERA_DEVELOPMENT: 'true', TESSERA_LOG_REQUESTS: 'true', HOME: '/ignored' } });
  const defaults = defaultConfig();
  t.same(config, {
    ...defaults,
    port: 5000,
    baseUrl: 'https://components.example.com/',
    storagePath: path.join(dir, 'data'),
    development: true,
    logRequests: true,
    env: { name: 'production', region: 'eu' },
    publishTokens: [{ tenant: 'checkout', sha256: SHA, components: ['checkout-*'] }],
    limits: { ...defaults.limits, publishBytes: 1000, executionTimeoutMs: 300, maxBatchSize: 7 },
  });

  const fromEnv = loadConfig({
    env: {
      TESSERA_STORAGE: 'elsewhere',
      TESSERA_PUBLISH_TOKENS: JSON.stringify([{ tenant: 'search', sha256: SHA, components: ['*'] }]),
      TESSERA_ENV: '{"name":"staging"}',
      TESSERA_DEPENDENCY_POLICY: '{"allow":["ws"]}',
      TESSERA_ADMIN_TOKEN_SHA256: SHA,
    },
  });
  t.equal(fromEnv.adminTokenSha256, SHA, 'the admin token is configured by its sha256');
  t.same(problemsOf(() => loadConfig({ env: { TESSERA_ADMIN_TOKEN_SHA256: 'secret' } })), ['TESSERA_ADMIN_TOKEN_SHA256: adminTokenSha256 must be the sha256 of the token: 64 lowercase hex characters']);
  t.same(fromEnv.dependencyPolicy, { deny: defaultConfig().dependencyPolicy.deny, allow: ['ws'] }, 'the default deny-list stays');
  t.equal(fromEnv.storagePath, path.resolve('elsewhere'), 'relative to the working folder');
  t.same(fromEnv.publishTokens, [{ tenant: 'search', sha256: SHA, components: ['*'] }]);
  t.same(fromEnv.env, { name: 'staging' });
  t.same(loadConfig(), defaults, 'no file and no variables: the defaults');
});

t.test('every bad key is named, in the file and in the variables', async (t) => {
  const dir = await folder(t);
  const file = path.join(dir, 'bad.json');
  await writeFile(
    file,
    JSON.stringify({
      port: 'eighty',
      prot: 80,
      baseUrl: 'components.example.com',
      limits: { executionTimeout: 5, memoryMb: 1 },
      publishTokens: [{ tenant: 'checkout', sha256: 'not-a-hash', components: [] }, { sha256: SHA, components: ['Checkout'] }],
    }),
  );
  t.same(problemsOf(() => loadConfig({ file })), [
    `${file}: prot is not a known setting; known: port, host, baseUrl, storage, staticBaseUrl, pollIntervalSeconds, internalAddress, replicaHeartbeatSeconds, unpublishWindowHours, auditRetentionDays, adminTokenSha256, development, logRequests, env, plugins, publishTokens, dependencyPolicy, tenants, cors, limits`,
    `${file}: port must be an integer`,
    `${file}: baseUrl must be an http:// or https:// URL`,
    `${file}: publishTokens[0].sha256 must be the sha256 of the token: 64 lowercase hex characters`,
    `${file}: publishTokens[0].components must not be empty`,
    `${file}: publishTokens[1].tenant is required`,
    `${file}: publishTokens[1].components[0] must be a component-name pattern: lowercase letters, digits, dashes and *`,
    `${file}: limits.executionTimeout is not a known setting; known: ${Object.keys(configSchema.properties.limits.properties).join(', ')}`,
    `${file}: limits.memoryMb must be at least 8`,
  ]);

  t.same(
    problemsOf(() => loadConfig({ env: { TESSERA_PORT: 'http', TESSERA_DEVELOPMENT: 'yes', TESSERA_LIMITS_SANDBOX_HOSTS: '0', TESSERA_PUBLISH_TOKENS: '[{"tenant": "x"}]', TESSERA_ENV: '{name' } })),
    [
      'TESSERA_ENV must hold JSON (an object): Expected property name or \'}\' in JSON at position 1 (line 1 column 2)',
      'TESSERA_PORT: port must be an integer',
      'TESSERA_DEVELOPMENT: development must be a boolean',
      'TESSERA_PUBLISH_TOKENS: publishTokens[0].sha256 is required',
      'TESSERA_PUBLISH_TOKENS: publishTokens[0].components is required',
      'TESSERA_LIMITS_SANDBOX_HOSTS: limits.sandboxHosts must be at least 1',
    ],
  );

  t.same(problemsOf(() => loadConfig({ file: path.join(dir, 'missing.json') })), [`${path.join(dir, 'missing.json')} does not exist`]);
  await writeFile(path.join(dir, 'broken.json'), '{"port": ');
  t.match(problemsOf(() => loadConfig({ file: path.join(dir, 'broken.json') })), [/broken\.json cannot be read as JSON: /]);
});

t.test('plugins come from a module named by the configuration', async (t) => {
  const dir = await folder(t);
  await writeFile(path.join(dir, 'plugins.js'), "module.exports = [{ name: 'shout', description: 'Upper-cases', func: (text) => String(text).toUpperCase() }];\n");
  await writeFile(path.join(dir, 'tessera.json'), JSON.stringify({ plugins: './plugins.js' }));
  const config = loadConfig({ file: path.join(dir, 'tessera.json') });
  const shout = config.plugins.find((plugin) => plugin.name === 'shout')!;
  t.equal(shout.description, 'Upper-cases');
  t.equal(shout.func('hi'), 'HI');
  t.same(
    config.plugins.map((plugin) => plugin.name),
    [...defaultConfig().plugins.map((plugin) => plugin.name), 'shout'],
    'added to the built-in plugins',
  );

  await writeFile(path.join(dir, 'bad-plugins.js'), "module.exports = { plugins: [{ name: 'no-func' }, { func() {} }] };\n");
  const bad = path.join(dir, 'bad-plugins.js');
  t.same(problemsOf(() => loadConfig({ env: { TESSERA_PLUGINS: bad } })), [`plugins (${bad})[0].func must be a function`, `plugins (${bad})[1].name must be a non-empty string`]);
  t.match(problemsOf(() => loadConfig({ env: { TESSERA_PLUGINS: path.join(dir, 'nowhere.js') } })), [/^plugins \(.*nowhere\.js\) cannot be loaded: Cannot find module/]);
});

t.test('the schema lists every limit of the registry', async (t) => {
  t.same(Object.keys(configSchema.properties.limits.properties).sort(), Object.keys(defaultConfig().limits).sort());
});
