import { readFileSync } from 'node:fs';
import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';
import { countAfter, hostsUp, until } from './wait-for';

const NAME = 'hostile-memory-catastrophic';

/** Whether the process runs (a process ended but not yet reaped by its parent does not). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

// A pool of one host (the default on 2 CPUs) recycles it when a tenant's component loses an isolate
// there. The host still runs every other isolate as before: it keeps taking executions until its
// replacement is ready, and only then drains. Here the replacement is stopped (SIGSTOP) the moment
// it is forked, so it cannot become ready: another tenant's component must render meanwhile, on the
// host being replaced, rather than wait for a host to start.
t.test('a host recycled for a lost isolate serves other tenants until its replacement is ready', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  const started = await startRegistry(t, [ofTenant('bomber', fixture(NAME)), BYSTANDER], (config) => {
    // Growing a map to the heap limit takes V8 a while on a loaded machine.
    config.limits.executionTimeoutMs = 20_000;
  });
  const { registry, url } = started;
  t.equal(registry.pool.size, 1, 'one sandbox host');
  await hostsUp(registry, 1);
  await bystanderRenders(t, started, 'Before', 'bystander before');
  const [first] = registry.pool.hostProcessIds();

  let replacement: number | undefined;
  const watch = setInterval(() => {
    const pid = registry.pool.hostProcessIds().find((candidate) => candidate !== first);
    if (pid === undefined || replacement !== undefined) return;
    replacement = pid;
    process.kill(pid, 'SIGSTOP');
  }, 1);
  t.teardown(() => {
    clearInterval(watch);
    if (replacement !== undefined && running(replacement)) process.kill(replacement, 'SIGCONT');
  });

  // V8 usually loses the isolate; on a busy machine its memory limit sometimes stops the script
  // first, which answers the same without a recycle: attempts go on until one was lost.
  const lost = async () => valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_sandbox_isolates_lost_total', { tenant: 'bomber' });
  for (let attempt = 1; replacement === undefined; attempt++) {
    if (attempt > 2) {
      t.fail('an isolate was lost within two attempts');
      return;
    }
    const hostile = await request(`${url}${NAME}`);
    t.equal(hostile.status, 500, `attempt ${attempt}: status`);
    t.equal(hostile.body.code, 'MEMORY_LIMIT_EXCEEDED', `attempt ${attempt}: code`);
    if ((await countAfter(lost, 0, 3000)) > 0) await until(() => replacement !== undefined);
  }
  clearInterval(watch);

  t.ok(running(first!), 'the host that lost the isolate still runs');
  for (const who of ['One', 'Two', 'Three']) await bystanderRenders(t, started, who, 'another tenant renders while the replacement cannot start');
  t.same(registry.pool.hostProcessIds(), [replacement], 'the stopped replacement still holds the slot: nothing waited for it to be killed and started again');

  if (running(replacement!)) process.kill(replacement!, 'SIGCONT');
  await until(() => !running(first!));
  await bystanderRenders(t, started, 'After', 'bystander on the replacement');
  t.same(registry.pool.hostProcessIds(), [replacement], 'the replacement took over');
  t.equal(registry.pool.stats().hosts, 1, 'one host ready');
  t.match((await request(`${url}metrics`)).text, /^tessera_sandbox_host_restarts_total\{reason="isolate-lost"\} 1$/m, 'the host was recycled once');
});
