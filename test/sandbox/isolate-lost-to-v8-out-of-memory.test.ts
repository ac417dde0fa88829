import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';
import { countAfter, hostsResidentBytes, until, hostsUp } from './wait-for';

const NAME = 'hostile-memory-catastrophic';

t.test('an allocation V8 itself cannot survive costs its host a recycle: MEMORY_LIMIT_EXCEEDED at once, then quarantine', async (t) => {
  // Growing a map to the heap limit takes V8 a while on a loaded machine (its last collections are
  // slow): a time limit well above it keeps this test about memory.
  const started = await startRegistry(t, [fixture(NAME), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    config.limits.executionTimeoutMs = 20_000;
  });
  const { registry, url } = started;
  await hostsUp(registry, 2);
  await bystanderRenders(t, started, 'Before', 'bystander before');
  const residentBefore = hostsResidentBytes(registry);

  // V8 usually loses the isolate; on a busy machine its memory limit sometimes stops the script
  // first, which answers the same without a recycle. Attempts go on until three were lost.
  const lost = async () => valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_sandbox_isolates_lost_total', { tenant: 'default' });
  for (let attempt = 1; (await lost()) < 3; attempt++) {
    if (attempt > 12) {
      t.fail('three isolates were lost within twelve attempts');
      return;
    }
    const hostsBefore = registry.pool.hostProcessIds();
    const lostBefore = await lost();
    // A 500 with this body, not a 504 at the time limit: V8's failure is answered when it happens.
    const [hostile] = await Promise.all([request(`${url}${NAME}`), bystanderRenders(t, started, 'Concurrent', `bystander during attempt ${attempt}`)]);
    t.equal(hostile.status, 500, `attempt ${attempt}: status`);
    t.same(hostile.body, {
      code: 'MEMORY_LIMIT_EXCEEDED',
      error: 'The component passed its sandbox memory limit; its sandbox was discarded.',
      name: NAME,
      requestVersion: '',
    });
    // The host that lost the isolate is drained and replaced by a new process. An isolate stopped
    // by the memory watchdog is found lost a moment after its answer, once it has not stopped.
    if ((await countAfter(lost, lostBefore, 3000)) > lostBefore) {
      const hostsAfter = registry.pool.hostProcessIds();
      t.equal(hostsAfter.filter((pid) => !hostsBefore.includes(pid)).length, 1, `attempt ${attempt}: the isolate was lost and one host replaced`);
    }
    await bystanderRenders(t, started, 'After', `bystander after attempt ${attempt}`);
  }

  const quarantined = await request(`${url}${NAME}`);
  t.equal(quarantined.status, 503, 'the fourth attempt is refused at once');
  t.equal(quarantined.headers.get('retry-after'), '1');
  t.match(quarantined.body, {
    code: 'SANDBOX_QUARANTINED',
    error: /^Component "hostile-memory-catastrophic" lost its sandbox 3 times within a minute; all its versions are refused for (60|59) s\.$/,
    name: NAME,
    requestVersion: '',
  });
  await bystanderRenders(t, started, 'Quarantine', 'bystander while the version is quarantined');

  // The parked threads and their memory went with the recycled processes.
  await until(() => registry.pool.stats().hosts === 2);
  const residentAfter = hostsResidentBytes(registry);
  t.ok(residentAfter < residentBefore * 1.5, `hosts hold ${Math.round(residentAfter / 2 ** 20)} MB after, ${Math.round(residentBefore / 2 ** 20)} MB before`);
  const metrics = (await request(`${url}metrics`)).text;
  t.match(metrics, /^tessera_sandbox_host_restarts_total\{reason="isolate-lost"\} 3$/m, 'each lost isolate recycled its host');
  t.ok(valueOf(parseMetrics(metrics), 'tessera_memory_limit_kills_total', { component: NAME, tenant: 'default' }) >= 3, 'every attempt is a memory kill');
});
