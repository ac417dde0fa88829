import t from 'tap';
import path from 'node:path';
import { DEMO, fixture, ofTenant, request, startRegistry, type TenantComponent } from '../helpers/start-registry';
import { parseMetrics, valueOf } from '../sandbox/parse-metrics';
import { hostsUp, until } from '../sandbox/wait-for';

const HOG = 'hostile-foreign-alibi-hog';
/** The names the hog renders as nested renders: another tenant's. */
const FOREIGN = ['alibi-one', 'alibi-two', 'alibi-three', 'alibi-four', 'alibi-five'];
/** The same code as the hog's own tenant's. */
const OWN = FOREIGN.map((name) => `own-${name}`);
const ALIBI_MB = 24;
/** About 100 MB of dictionary inside one `fill`: past twice the memory limit (2 × 32 MB). */
const FILL = 'spinMs=700&count=1000000';
const alibi = (tenant: string) => (name: string): TenantComponent => ({ dir: fixture('hostile-heap-alibi'), tenant, name });

// The memory watchdog stops the one isolate at work through the host's growth, less what other
// tenants' isolates that worked meanwhile took by their heaps. A heap reading is no measure of what
// the host holds: an ArrayBuffer never written counts in an isolate's heap at once, and none of it is
// resident. So neither the hog's own tenant's quick executions keeping such buffers, nor another
// tenant's components the hog itself makes run (nested renders, not awaited), may excuse the hog
// growing the host by about 100 MB inside one built-in (decisions §13).
t.test('untouched buffers of its own tenant, or of components it makes run, never excuse a hog growing the host inside a built-in', async (t) => {
  const { registry, url } = await startRegistry(
    t,
    [ofTenant('mallory', fixture(HOG)), ...OWN.map(alibi('mallory')), ...FOREIGN.map(alibi('eve')), ofTenant('ada', path.join(DEMO, 'hello-world'))],
    (config) => {
      config.limits.sandboxHosts = 1;
      config.limits.memoryMb = 32;
      config.limits.executionTimeoutMs = 8000;
    },
  );
  // After a stop the hog's thread may outlive it (the host is then recycled): a fresh, warm host each time.
  let pids = registry.pool.hostProcessIds();
  const warmUp = async (): Promise<void> => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await until(() => registry.pool.stats().hosts === 1 && (registry.pool.hostProcessIds()[0] !== pids[0] || registry.pool.stats().busyComponents === 0));
    await hostsUp(registry, 1);
    pids = registry.pool.hostProcessIds();
    t.equal((await request(`${url}${HOG}`)).status, 200, 'the hog warm');
    for (const name of [...OWN, ...FOREIGN]) t.equal((await request(`${url}${name}`)).status, 200, `${name} warm`);
  };
  const stopped = (answer: { status: number; body: { code?: string } }, message: string) => t.same([answer.status, answer.body.code], [500, 'MEMORY_LIMIT_EXCEEDED'], message);

  await warmUp();
  stopped(await request(`${url}${HOG}?${FILL}`), 'alone, the hog is stopped inside its built-in');

  await warmUp();
  const hog = request(`${url}${HOG}?${FILL}`);
  await new Promise((resolve) => setTimeout(resolve, 150));
  const own = await Promise.all(OWN.map((name) => request(`${url}${name}?mb=${ALIBI_MB}`)));
  t.same(own.map((answer) => answer.status), OWN.map(() => 200), 'its tenant kept a buffer in each quick execution while the hog computed');
  stopped(await hog, "stopped all the same: its own tenant's buffers explain none of the host's growth");

  await warmUp();
  stopped(await request(`${url}${HOG}?${FILL}&mb=${ALIBI_MB}`), "stopped all the same: another tenant's buffers it made run explain none of it");

  const metrics = parseMetrics((await request(`${url}metrics`)).text);
  t.equal(valueOf(metrics, 'tessera_memory_limit_kills_total', { component: HOG, tenant: 'mallory' }), 3, 'each fill counts as a memory kill of the hog');
  t.equal((await request(`${url}hello-world/1.0.0?name=Ada`)).status, 200, "another tenant's component answers");
});
