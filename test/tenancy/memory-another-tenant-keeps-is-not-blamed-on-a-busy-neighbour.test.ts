import t from 'tap';
import { fixture, ofTenant, request, startRegistry, type TenantComponent } from '../helpers/start-registry';
import { parseMetrics, valueOf } from '../sandbox/parse-metrics';
import { hostsUp } from '../sandbox/wait-for';

const HOARDS = ['hoard-one', 'hoard-two', 'hoard-three', 'hoard-four'];
const CHUNK_MB = 48;
/** busy-bystander declares the `lookup` plugin; this test only computes. */
const LOOKUP = { name: 'lookup', description: 'answers at once', func: () => 42 };
const hoard = (name: string): TenantComponent => ({ dir: fixture('hostile-quick-hoard'), tenant: 'mallory', name });

// The host's memory watchdog blames the isolates that have been at work without a break while the
// host grew. A tenant whose executions each take a chunk in a few milliseconds (and keep it, each
// component well within its memory limit) is never at work long enough to be watched: all the growth
// is charged to whichever other isolate happens to be computing meanwhile, a neighbour of another
// tenant doing legitimate work. That neighbour must keep its answer, and no memory kill or loss may
// be counted against it.
t.test("memory one tenant's quick executions take is never charged to another tenant's long computation", async (t) => {
  const started = await startRegistry(t, [ofTenant('ada', fixture('busy-bystander')), ...HOARDS.map(hoard)], (config) => {
    config.plugins = [LOOKUP];
    config.limits.executionTimeoutMs = 5000;
    config.limits.sandboxHosts = 1;
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  // Every version warm first: no build counts as work while the neighbour computes.
  for (const name of HOARDS) t.equal((await request(`${url}${name}`)).status, 200, `${name} warm`);
  t.equal((await request(`${url}busy-bystander?cpu=10`)).status, 200, 'the neighbour warm');

  const busy = request(`${url}busy-bystander?cpu=2000`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (const name of HOARDS) {
    const taken = await request(`${url}${name}?mb=${CHUNK_MB}`);
    t.same([taken.status, taken.body.html], [200, '<p>holding 1 chunks</p>'], `${name} took ${CHUNK_MB} MB in one quick execution`);
  }
  const answer = await busy;
  t.same([answer.status, answer.body.code], [200, undefined], "the neighbour's computation is answered, not stopped for the other tenant's memory");
  t.match(answer.body.html, /^<p>served 2: worked 2000 ms \(some primes\)<\/p>$/, 'in the isolate it warmed');

  const metrics = parseMetrics((await request(`${url}metrics`)).text);
  t.equal(valueOf(metrics, 'tessera_memory_limit_kills_total', { component: 'busy-bystander', tenant: 'ada' }), 0, 'no memory kill is counted against the neighbour');
  t.equal(valueOf(metrics, 'tessera_sandbox_isolates_lost_total', { tenant: 'ada' }), 0, 'no lost isolate is counted against the neighbour');
  t.equal(valueOf(metrics, 'tessera_sandbox_quarantines_total', { tenant: 'ada', scope: 'component' }), 0, 'nor a quarantine');
});
