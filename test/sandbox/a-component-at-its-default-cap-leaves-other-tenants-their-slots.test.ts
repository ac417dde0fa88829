import t from 'tap';
import { defaultConfig } from '../../src/config/config';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { hostsUp, until, warmIsolates } from './wait-for';

/** Long enough for every check below to run while the hot executions still hold their slots, however busy the machine. */
const LIMIT_MS = 4000;
const CAP = defaultConfig().limits.maxConcurrentPerComponent;
const QUEUED = 8;

/** Slots each tenant holds now, from `/metrics`. */
async function slotsByTenant(url: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}metrics`)).text();
  return Object.fromEntries([...text.matchAll(/^tessera_sandbox_tenant_slots\{tenant="([^"]+)"\} (\d+)$/gm)].map(([, tenant, slots]) => [tenant, Number(slots)]));
}

// The default cap lets a component run more of its executions at once (128, half the slots of the
// default pool on 2 CPUs: one host of 256). A tenant flooding its component that never answers then
// holds those 128, no more: its next executions wait in the component's own queue, and another
// tenant's component renders at once, beside them.
t.test('a component flooded past its default cap holds half the pool; another tenant renders at once', async (t) => {
  t.equal(CAP, 128, 'the default cap');
  const started = await startRegistry(t, [ofTenant('flooder', fixture('hostile-never-settles')), BYSTANDER], (config) => {
    config.limits.executionTimeoutMs = LIMIT_MS;
  });
  const { registry, url } = started;
  t.equal(registry.pool.size * defaultConfig().limits.concurrentPerHost, 2 * CAP, 'the pool holds twice the cap');
  await hostsUp(registry, 1);
  await bystanderRenders(t, started, 'Before', 'before the flood');

  const first = request(`${url}hostile-never-settles`);
  await warmIsolates(registry, 2);
  const hot = [first, ...Array.from({ length: CAP + QUEUED - 1 }, () => request(`${url}hostile-never-settles`))];
  // All sent: the cap is held and the rest waits (a machine slow enough to end the first execution
  // meanwhile has given its slot to one that waited, and still holds the cap).
  await until(async () => (await slotsByTenant(url))['flooder'] === CAP && registry.pool.queueSize > 0 && registry.pool.queueSize + CAP >= CAP + QUEUED - 1);

  await bystanderRenders(t, started, 'Meanwhile', 'the other tenant renders at once, not behind the flood');
  t.same(await slotsByTenant(url), { flooder: CAP }, 'the flooder still holds its cap, no more; the bystander gave its slot back');
  t.ok(registry.pool.queueSize > 0, 'its excess still waits in its own queue');

  // A waiting one either got a slot freed at the time limit, or waited the time limit itself and was
  // turned away: the two come at the same moment, so either may win.
  const codes = (await Promise.all(hot)).map(({ body }) => body.code as string);
  t.ok(codes.filter((code) => code === 'EXECUTION_TIMEOUT').length >= CAP, 'the executions that held the cap each ended at their time limit');
  t.same(codes.filter((code) => code !== 'EXECUTION_TIMEOUT' && code !== 'OVERLOADED'), [], 'and every other either ran to its limit or was turned away as OVERLOADED');
});
