import t from 'tap';
import type { RegistryConfig } from '../../src/config/config';
import { eventually } from '../cli/run-cli';
import { GREETING, packed, publishTokens, put } from '../publish/publish-helpers';
import { startS3Registry } from '../helpers/start-s3-registry';
import { startS3Server } from '../helpers/s3-server';
import { request } from '../helpers/start-registry';

const EACH = 4;

t.test('two replicas publishing at once on S3: a third finds every version through the journal, none lost', async (t) => {
  const server = await startS3Server(t);
  const configure = (config: RegistryConfig) => {
    config.publishTokens = publishTokens();
  };
  const replica = (poll: number) =>
    startS3Registry(t, { prefix: 'journal', endpoint: server.endpoint, storage: { settleMs: 100 }, configure: (config) => (configure(config), (config.pollIntervalSeconds = poll)) });
  const [first, second, reader] = [await replica(0), await replica(0), await replica(0.2)];

  const versions = (major: number) => Array.from({ length: EACH }, (_, minor) => `${major}.${minor}.0`);
  const publishes = [...versions(1).map((version) => [first.url, version]), ...versions(2).map((version) => [second.url, version])];
  const answers = await Promise.all(publishes.map(async ([url, version]) => (await put(url!, `publish-greeting/${version}`, await packed(GREETING, version))).status));
  t.same(answers, publishes.map(() => 201), 'every publish is stored');

  const expected = [...versions(1), ...versions(2)];
  await eventually(async () => (await request(`${reader.url}publish-greeting/~info`)).body.allVersions?.length === expected.length, 10_000);
  t.same((await request(`${reader.url}publish-greeting/~info`)).body.allVersions, expected, "the third replica has both replicas' versions");
  const entries = await reader.storage!.listRecords('changes/');
  t.equal(entries.length, expected.length, 'one journal entry per publish, each its own object');
  for (const version of ['1.3.0', '2.3.0']) {
    const rendered = await request(`${reader.url}publish-greeting/${version}?name=Ada`);
    t.equal(rendered.status, 200);
    t.match(rendered.body.html, /Hello, Ada/);
  }
});
