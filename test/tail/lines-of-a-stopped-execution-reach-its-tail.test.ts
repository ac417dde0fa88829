import t from 'tap';
import { fixture, request, startRegistry, type TenantComponent } from '../helpers/start-registry';
import { LABS_TOKEN, openTail, SHOP_TOKEN, stable, twoTenants, type TailEvent } from './tail-helpers';

// Generous: the machine running the suite may be busy; what is asserted is what happened, not how fast.
const LIMIT_MS = 1500;

const COMPONENTS: TenantComponent[] = [
  { dir: fixture('tail-stopped'), tenant: 'shop', name: 'shop-stopped' },
  { dir: fixture('tail-logger'), tenant: 'labs', name: 'labs-logger' },
];

const executionOf = (name: string) => (event: TailEvent) => event.type === 'execution' && event.data.name === name;

t.test("an execution stopped by its time limit shows the lines it logged in its tenant's tail, and none in another tenant's", async (t) => {
  const { url } = await startRegistry(t, COMPONENTS, (config) => {
    twoTenants(config);
    config.limits.executionTimeoutMs = LIMIT_MS;
  });
  const shop = await openTail(url, SHOP_TOKEN);
  const labs = await openTail(url, LABS_TOKEN);
  for (const tail of [shop, labs]) t.teardown(() => tail.close());

  const looped = await request(`${url}shop-stopped?stop=loop`);
  t.equal(looped.status, 504);
  t.equal(looped.body.code, 'EXECUTION_TIMEOUT');
  await shop.waitFor(executionOf('shop-stopped'));
  const waited = await request(`${url}shop-stopped?stop=wait&lines=60`);
  t.equal(waited.body.code, 'EXECUTION_TIMEOUT');
  await shop.waitFor(executionOf('shop-stopped'), 2);
  const bystander = await request(`${url}labs-logger?lines=1`);
  t.equal(bystander.status, 200);
  await labs.waitFor(executionOf('labs-logger'));

  const timedOut = { status: 504, code: 'EXECUTION_TIMEOUT', message: 'The component passed its execution time limit.' };
  const lines = (stop: string, count: number) => Array.from({ length: count }, (_, line) => ({ level: 'warn', message: `${stop} line ${line}` }));
  t.same(stable(shop.events), [
    { name: 'shop-stopped', version: '1.0.0', via: 'get', outcome: timedOut, console: lines('loop', 2) },
    // Past the bound: 50 lines kept, and at least one dropped (the sandbox was stopped before it could count them).
    { name: 'shop-stopped', version: '1.0.0', via: 'get', outcome: timedOut, console: lines('wait', 50), consoleDropped: 1 },
  ]);
  t.same(stable(labs.events), [{ name: 'labs-logger', version: '1.0.0', via: 'get', outcome: { status: 200 }, console: [{ level: 'log', message: 'labs-logger@1.0.0 line 0' }] }]);
});

t.test("an execution stopped by its memory limit shows the lines it logged in its tenant's tail", async (t) => {
  const { url } = await startRegistry(t, COMPONENTS, (config) => {
    twoTenants(config);
    config.limits.memoryMb = 16;
    // Far above what growing to the memory limit takes, even on a busy machine: the memory limit speaks.
    config.limits.executionTimeoutMs = 30_000;
  });
  const shop = await openTail(url, SHOP_TOKEN);
  t.teardown(() => shop.close());
  const grown = await request(`${url}shop-stopped?stop=memory&lines=3`);
  t.equal(grown.status, 500);
  t.equal(grown.body.code, 'MEMORY_LIMIT_EXCEEDED');
  await shop.waitFor(executionOf('shop-stopped'));
  t.same(stable(shop.events), [
    {
      name: 'shop-stopped',
      version: '1.0.0',
      via: 'get',
      outcome: { status: 500, code: 'MEMORY_LIMIT_EXCEEDED', message: 'The component passed its sandbox memory limit; its sandbox was discarded.' },
      console: ['memory line 0', 'memory line 1', 'memory line 2'].map((message) => ({ level: 'warn', message })),
    },
  ]);
});
