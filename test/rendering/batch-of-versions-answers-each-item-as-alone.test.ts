import t from 'tap';
import { fixture, ofTenant, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { postJson } from './post-json';

const THROWER = fixture('errors-thrower');
const HEADERS = fixture('rendering-headers');
const LIMIT_MS = 1500;

type Item = { status: number; response: Record<string, unknown>; headers?: Record<string, string> };

/** An item as it can be compared across requests: the id each render of a component's markup gets is its own. */
const comparable = (item: Item): Item => JSON.parse(JSON.stringify(item).replace(/id=\\"[0-9a-f-]{36}\\"/g, 'id=\\"…\\"'));

const answered = async (url: string, components: unknown[]): Promise<Item[]> => {
  const { status, body } = await postJson(url, { omitHref: true, components });
  if (status !== 200) throw new Error(`The batch was answered ${status}.`);
  return (body as Item[]).map(comparable);
};

// Versions of one component share its isolate, each in a context of its own: their executions that
// arrive together enter it in one call. Each must answer as it does alone.
t.test('a batch over several versions and hosts answers each item as when sent alone', async (t) => {
  const { url } = await startRegistry(
    t,
    [
      ofTenant('acme', THROWER, '1.0.0'),
      ofTenant('acme', THROWER, '1.1.0'),
      ofTenant('acme', THROWER, '2.0.0'),
      ofTenant('acme', HEADERS, '1.0.0'),
      ofTenant('acme', HEADERS, '2.0.0'),
      ofTenant('zenith', fixture('version-globals-1.0.0')),
    ],
    TWO_HOSTS,
  );
  const items = [
    { name: 'errors-thrower', version: '1.0.0' },
    { name: 'errors-thrower', version: '1.x.x', parameters: { message: 'refused by 1.1.0', status: 403 } },
    { name: 'errors-thrower', parameters: { message: 'broken in 2.0.0' } },
    { name: 'errors-thrower', version: '~1.0.0' },
    { name: 'rendering-headers', version: '1.0.0', parameters: { case: 'headers' } },
    { name: 'rendering-headers', version: '2.0.0', parameters: { case: 'content-length' } },
    { name: 'rendering-headers', parameters: { case: 'cookies' } },
    { name: 'version-globals' },
  ];
  const alone: Item[] = [];
  for (const item of items) alone.push(...(await answered(url, [item])));
  t.same(
    alone.map((item) => item.status),
    [200, 403, 500, 200, 200, 500, 200, 200],
    'each item alone',
  );
  // Twice: the first warms every version; the second enters the versions of each isolate together.
  for (const round of ['cold', 'warm']) {
    const together = await answered(url, items);
    for (const [index, item] of items.entries()) {
      // version-globals counts its calls: its answer is compared without its count.
      const strip = (answer: Item) => (item.name === 'version-globals' ? { ...answer, response: { ...answer.response, html: undefined } } : answer);
      t.same(strip(together[index]!), strip(alone[index]!), `${round}: ${item.name}@${item.version ?? 'latest'}`);
    }
  }
});

t.test("a hostile item beside another tenant's items leaves them their answers", async (t) => {
  const { url } = await startRegistry(
    t,
    [ofTenant('mallory', fixture('hostile-sync-loop')), ofTenant('acme', THROWER, '1.0.0'), ofTenant('acme', THROWER, '2.0.0')],
    (config) => {
      TWO_HOSTS(config);
      config.limits.executionTimeoutMs = LIMIT_MS;
    },
  );
  const bystanders = [{ name: 'errors-thrower', version: '1.0.0' }, { name: 'errors-thrower', parameters: { message: 'thrown beside a loop', status: 418 } }];
  const alone: Item[] = [];
  for (const item of bystanders) alone.push(...(await answered(url, [item])));
  for (const round of ['cold', 'warm']) {
    const [hostile, ...rest] = await answered(url, [{ name: 'hostile-sync-loop' }, ...bystanders]);
    t.equal(hostile!.status, 504, `${round}: the loop is stopped`);
    t.equal(hostile!.response.code, 'EXECUTION_TIMEOUT', `${round}: by its time limit`);
    t.same(rest, alone, `${round}: the bystanders answer as alone`);
  }
});
