import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { put } from '../publish/publish-helpers';
import { BYSTANDER, bystanderRenders } from '../sandbox/bystander';
import { parseMetrics, valueOf } from '../sandbox/parse-metrics';
import { until } from '../sandbox/wait-for';
import { admin } from '../tenants/admin-helpers';
import { COOKIE_KEEPER, LABS, SHOP, overlappingTenants, packedAs } from './names-helpers';

const NAME = 'shop-labs-widget';
/** The slots one component's executions may hold at once (`maxConcurrentPerComponent`), small so that a few requests take them all. */
const SLOTS = 2;

/**
 * A component's executions hold slots of its admission gate (`maxConcurrentPerComponent`): one hot
 * component never takes the whole pool. The gate was the name's: once the administrator moved a name
 * to another tenant, the former owner's live version (decisions §15) shared it with the new owner's.
 * A few requests of the former owner's version, spinning to their time limit, held every slot, and
 * the new owner's version waited behind them: far cheaper than flooding the new owner's own code.
 * Each tenant's versions of a name now have a gate of their own.
 */
t.test("a moved name's former owner's executions never hold the slots of the new owner's version", async (t) => {
  const started = await startRegistry(t, [BYSTANDER], (config) => {
    overlappingTenants(config);
    config.limits.maxConcurrentPerComponent = SLOTS;
    // The spins end when their clients leave, not at this limit.
    config.limits.executionTimeoutMs = 20_000;
  });
  const { url } = started;
  t.equal((await put(url, `${NAME}/1.0.0`, await packedAs(fixture('hostile-sync-loop'), NAME, '1.0.0'), { token: LABS })).status, 201);
  t.equal((await admin(url, 'PUT', `names/${NAME}`, { tenant: 'shop' })).status, 200);
  t.equal((await put(url, `${NAME}/2.0.0`, await packedAs(COOKIE_KEEPER, NAME, '2.0.0'), { token: SHOP })).status, 201);

  // labs' version holds as many slots as a component may: its spins, one running, the others waiting their turn in its isolate.
  let spinsEnded = 0;
  const clients = Array.from({ length: SLOTS }, () => new AbortController());
  const spins = clients.map((client) =>
    request(`${url}${NAME}/1.0.0`, { signal: client.signal })
      .catch(() => undefined)
      .finally(() => spinsEnded++),
  );
  await until(async () => valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_sandbox_busy_components') === 1);

  const { status, body } = await request(`${url}${NAME}/2.0.0`);
  t.same([status, typeof body.html === 'string' && body.html.includes('<p>(none)</p>') ? 'rendered' : body], [200, 'rendered'], "shop's version renders while labs' spins hold their slots");
  t.equal(spinsEnded, 0, "shop's render was answered while labs' spins went on");
  await bystanderRenders(t, started, 'During', 'the bystander during the spins');

  for (const client of clients) client.abort();
  await Promise.all(spins);
});
