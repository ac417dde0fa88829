import t from 'tap';
import { freshGet } from '../helpers/fresh-get';
import { startRegistry } from '../helpers/start-registry';
import { ADMIN_TOKEN, LABS_TOKEN, openTail, SHOP_TOKEN, stable, twoTenants, TWO_TENANTS_COMPONENTS, type Tail } from './tail-helpers';

/** Enough renders, each on a connection of its own, that every front thread serves some. */
const RENDERS = 16;

const withTwoFronts = (tailsPerTenant: number) => (config: Parameters<typeof twoTenants>[0]) => {
  twoTenants(config);
  config.limits.frontThreads = 2;
  config.limits.tailsPerTenant = tailsPerTenant;
};

t.test('tails opened on any front thread see the executions every front thread serves', { skip: process.platform !== 'linux' && 'front threads share a port on Linux only' }, async (t) => {
  const { url } = await startRegistry(t, TWO_TENANTS_COMPONENTS, withTwoFronts(5));
  const tails = await Promise.all([openTail(url, SHOP_TOKEN), openTail(url, SHOP_TOKEN), openTail(url, LABS_TOKEN), openTail(url, ADMIN_TOKEN)]);
  t.teardown(() => tails.forEach((tail) => tail.close()));
  const [shopOne, shopTwo, labs, admin] = tails;
  t.same(tails.map((tail) => tail.status), [200, 200, 200, 200]);

  const answers = await Promise.all(Array.from({ length: RENDERS }, () => freshGet(`${url}shop-nester?child=labs-logger`)));
  t.same(answers.map((answer) => answer.status), Array(RENDERS).fill(200));
  const executions = (tail: (typeof tails)[number], count: number) => tail.waitFor(() => tail.events.filter((event) => event.type === 'execution').length === count);
  await Promise.all([executions(shopOne!, 2 * RENDERS), executions(shopTwo!, 2 * RENDERS), executions(labs!, RENDERS), executions(admin!, 2 * RENDERS)]);

  for (const shop of [shopOne!, shopTwo!]) {
    const seen = stable(shop.events).map((event: any) => `${event.name} ${event.foreign === true ? 'outcome only' : 'in full'}`);
    t.same(seen.filter((line) => line === 'shop-nester in full').length, RENDERS);
    t.same(seen.filter((line) => line === 'labs-logger outcome only').length, RENDERS);
  }
  t.same(stable(labs!.events).map((event: any) => `${event.name} ${event.via} ${event.caller ?? ''}`), Array(RENDERS).fill('labs-logger nested '));
});

t.test("a tenant's bound of tails holds across the front threads of the process", { skip: process.platform !== 'linux' && 'front threads share a port on Linux only' }, async (t) => {
  const { url } = await startRegistry(t, TWO_TENANTS_COMPONENTS, withTwoFronts(2));
  const tails: Tail[] = [];
  for (let i = 0; i < 6; i++) tails.push(await openTail(url, SHOP_TOKEN));
  t.teardown(() => tails.forEach((tail) => tail.close()));
  t.same(tails.map((tail) => tail.status), [200, 200, 429, 429, 429, 429]);
});
