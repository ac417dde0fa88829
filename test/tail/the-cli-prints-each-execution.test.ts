import t from 'tap';
import { request, startRegistry } from '../helpers/start-registry';
import { eventually, runCli, startCli } from '../cli/run-cli';
import { LABS_TOKEN, SHOP_TOKEN, twoTenants, TWO_TENANTS_COMPONENTS } from './tail-helpers';

const streamsOpen = async (url: string, tenant: string): Promise<number> =>
  Number(new RegExp(`^tessera_tail_streams\\{tenant="${tenant}"\\} (\\d+)$`, 'm').exec((await request(`${url}metrics`)).text)?.[1] ?? 0);

t.test('tessera tail prints one JSON line per execution when not in a terminal, and says so when the registry drains', async (t) => {
  const { url, registry } = await startRegistry(t, TWO_TENANTS_COMPONENTS, twoTenants);
  const cli = startCli(t, ['tail', 'shop-*', '--registry', url, '--token', SHOP_TOKEN, '--status', '2xx,5xx']);
  await eventually(async () => (await streamsOpen(url, 'shop')) === 1);

  for (const path of ['shop-logger?lines=1', 'labs-logger', 'shop-logger?fail=true&lines=0']) await request(`${url}${path}`);
  await cli.waitFor(/failed on purpose"\]?\}?/);
  await cli.waitFor(/"exception"/);
  const lines = cli
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
  t.same(
    lines.map(({ name, via, outcome, console }) => ({ name, via, outcome, console })),
    [
      { name: 'shop-logger', via: 'get', outcome: { status: 200 }, console: [{ level: 'log', message: 'shop-logger@1.0.0 line 0' }] },
      { name: 'shop-logger', via: 'get', outcome: { status: 500, code: 'GENERIC_ERROR', message: 'Component "shop-logger" failed: shop-logger@1.0.0 failed on purpose' }, console: [] },
    ],
  );
  t.match(lines[1].exception, { message: 'shop-logger@1.0.0 failed on purpose', stack: ['at failOnPurpose (src/entry.server.ts:7:9)'] });

  registry.readiness.drain();
  await cli.waitFor(/tessera tail: the registry drains; connecting again/);
  await cli.waitFor(/tessera tail: the registry is not ready \(NOT_READY\); trying again in/);
});

t.test("tessera tail stops on a refusal: another tenant's pattern", async (t) => {
  const { url } = await startRegistry(t, TWO_TENANTS_COMPONENTS, twoTenants);
  const refused = await runCli(['tail', 'shop-*', '--registry', url, '--token', LABS_TOKEN, '--format', 'json']);
  t.equal(refused.code, 1);
  t.equal(refused.stdout, '');
  t.equal(refused.stderr, 'Error: The registry refused the tail (403 FORBIDDEN): Tenant "labs" may not watch "shop-*": its components are named labs-*.\n');
});
