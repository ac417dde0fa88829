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
 * memory limit, heap and losses were counted as `labs`'). Each tenant's versions of a name now get
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
