import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { put } from '../publish/publish-helpers';
import { BYSTANDER, bystanderRenders } from '../sandbox/bystander';
import { parseMetrics, valueOf } from '../sandbox/parse-metrics';
import { until } from '../sandbox/wait-for';
import { admin } from '../tenants/admin-helpers';
import { COOKIE_KEEPER, LABS, SHOP, overlappingTenants, packedAs } from './names-helpers';

const NAME = 'shop-labs-widget';

/**
 * `labs` owns a name; the administrator moves it to `shop`, which publishes its own code under it,
 * and `labs`' version stays live (decisions §15). A sandbox host kept a name's versions in the name's
 * isolates whoever published them: `shop`'s version was built in the isolate of `labs`', and an
 * isolate runs one thing at a time, so `shop` spinning there held `labs`' renders behind it (and its
 * memory limit and heap were counted as `labs`'). Each tenant's versions of a name now get
 * isolates of their own.
 */
t.test("a name's next owner never shares an isolate with its former owner's live version", async (t) => {
  const started = await startRegistry(t, [BYSTANDER], (config) => {
    overlappingTenants(config);
    // One host, so both versions are built where the name's isolates are.
    config.limits.sandboxHosts = 1;
    // The spin ends when its client leaves, not at this limit.
    config.limits.executionTimeoutMs = 20_000;
  });
  const { url } = started;
  const labsRenders = async () => {
    const { status, body } = await request(`${url}${NAME}/1.0.0`);
    return [status, typeof body.html === 'string' && body.html.includes('<p>(none)</p>') ? 'rendered' : body];
  };
  await bystanderRenders(t, started, 'Before', 'the bystander before');

  t.equal((await put(url, `${NAME}/1.0.0`, await packedAs(COOKIE_KEEPER, NAME, '1.0.0'), { token: LABS })).status, 201);
  t.same(await labsRenders(), [200, 'rendered'], "labs' version renders, and is warm");
  t.equal((await admin(url, 'PUT', `names/${NAME}`, { tenant: 'shop' })).status, 200);
  t.equal((await put(url, `${NAME}/2.0.0`, await packedAs(fixture('hostile-sync-loop'), NAME, '2.0.0'), { token: SHOP })).status, 201);

  let spinEnded = false;
  const client = new AbortController();
  const spinning = request(`${url}${NAME}/2.0.0`, { signal: client.signal })
    .catch(() => undefined)
    .finally(() => {
      spinEnded = true;
    });
  // Its host reports the isolate busy within a fifth of a second.
  await until(async () => valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_sandbox_busy_components') === 1);
  t.same(await labsRenders(), [200, 'rendered'], "labs' version renders while shop's spins");
  t.notOk(spinEnded, "labs' render was answered while shop's spin went on");
  await bystanderRenders(t, started, 'During', 'the bystander during the spin');

  client.abort();
  await spinning;
  await until(async () => valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_sandbox_busy_components') === 0);
  t.same(await labsRenders(), [200, 'rendered'], "labs' version renders after");
});

/**
 * The CPU a host reports was counted against the tenant of the name's latest version: once the name
 * moved, every second the former owner's version spent was counted as the new owner's. A host now
 * reports it by the tenant whose versions each isolate runs.
 */
t.test("the CPU of a moved name's former owner's version counts against that owner, not the new one", async (t) => {
  const started = await startRegistry(t, [], (config) => {
    overlappingTenants(config);
    config.limits.sandboxHosts = 1;
    // labs' version spins until this limit.
    config.limits.executionTimeoutMs = 2000;
  });
  const { url } = started;
  const cpu = async () => {
    const samples = parseMetrics((await request(`${url}metrics`)).text);
    return { labs: valueOf(samples, 'tessera_tenant_cpu_seconds_total', { tenant: 'labs' }), shop: valueOf(samples, 'tessera_tenant_cpu_seconds_total', { tenant: 'shop' }) };
  };

  t.equal((await put(url, `${NAME}/1.0.0`, await packedAs(fixture('hostile-sync-loop'), NAME, '1.0.0'), { token: LABS })).status, 201);
  t.equal((await admin(url, 'PUT', `names/${NAME}`, { tenant: 'shop' })).status, 200);
  t.equal((await put(url, `${NAME}/2.0.0`, await packedAs(COOKIE_KEEPER, NAME, '2.0.0'), { token: SHOP })).status, 201);

  const spun = await request(`${url}${NAME}/1.0.0`);
  t.same([spun.status, spun.body.code], [504, 'EXECUTION_TIMEOUT'], "labs' version spins to its limit");
  // The host reports every half second; the spin's CPU shows once its isolate's time was read, and
  // all of it a report later. How much a busy machine gave the spin is not the point: whose it is.
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  for (let first = await cpu(); first.labs + first.shop === 0; first = await cpu()) await wait(100);
  await wait(1500);
  const spent = await cpu();
  t.ok(spent.labs > 0, `labs' CPU counts its spin (${spent.labs.toFixed(2)} s)`);
  t.equal(spent.shop, 0, 'shop, whose version never ran, is counted none of it');
});
