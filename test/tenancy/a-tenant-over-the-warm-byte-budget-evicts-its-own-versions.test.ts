import t from 'tap';
import { fixture, ofTenant, request, startRegistry, type TenantComponent } from '../helpers/start-registry';
import { hostsUp, until } from '../sandbox/wait-for';

const HOARDS = ['hoard-one', 'hoard-two', 'hoard-three', 'hoard-four'];
const CHUNK_MB = 40;
const LOOKUP = { name: 'lookup', description: 'answers at once', func: () => 42 };
const hoard = (name: string): TenantComponent => ({ dir: fixture('hostile-quick-hoard'), tenant: 'mallory', name });

// A host keeps its warm versions within a byte budget, evicting the least recently used first. One
// tenant whose components each keep tens of MB (each within its own memory limit) puts the host over
// the budget; a small version of another tenant, used a moment earlier, is the first one out, though
// evicting it gives back almost nothing of the bytes over the budget. The versions evicted to get back
// within the budget must be those of the tenant holding the bytes: the small neighbour stays warm.
t.test("a tenant's heavy warm versions never push another tenant's small version out of the host's byte budget", async (t) => {
  const started = await startRegistry(t, [ofTenant('ada', fixture('busy-bystander')), ...HOARDS.map(hoard)], (config) => {
    config.plugins = [LOOKUP];
    config.limits.sandboxHosts = 1;
    config.limits.warmIsolateMbPerHost = 128;
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  const first = await request(`${url}busy-bystander`);
  t.same([first.status, first.body.html], [200, '<p>served 1: worked 0 ms (no primes)</p>'], 'the neighbour is warm');

  for (const name of HOARDS) {
    const taken = await request(`${url}${name}?mb=${CHUNK_MB}`);
    t.same([taken.status, taken.body.html], [200, '<p>holding 1 chunks</p>'], `${name} keeps ${CHUNK_MB} MB warm`);
  }
  // The host measures its warm versions every half second: wait until it is back within its budget.
  await until(() => {
    const { heapBytes } = registry.pool.stats();
    return heapBytes > 0 && heapBytes <= 128 * 1024 * 1024;
  });
  const again = await request(`${url}busy-bystander`);
  t.same([again.status, again.body.html], [200, '<p>served 2: worked 0 ms (no primes)</p>'], "the neighbour's version was kept warm: its module state lives on");
});
