import { readFileSync } from 'node:fs';
import t from 'tap';
import { fixture, ofTenant, request, startRegistry, type StartedRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { hostsUp, until } from './wait-for';

/** Whether the process runs (a process ended but not yet reaped by its parent does not). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Watches the registry's hosts for the one that replaces `first`, and stops it (SIGSTOP) the moment it is forked, before it can be ready. */
function stopTheReplacement(t: { teardown(fn: () => void): void }, registry: StartedRegistry['registry'], first: number): { readonly pid: number | undefined; stopWatching(): void } {
  let pid: number | undefined;
  const watch = setInterval(() => {
    const found = registry.pool.hostProcessIds().find((candidate) => candidate !== first);
    if (found === undefined || pid !== undefined) return;
    pid = found;
    process.kill(found, 'SIGSTOP');
  }, 1);
  t.teardown(() => {
    clearInterval(watch);
    if (pid !== undefined && running(pid)) process.kill(pid, 'SIGCONT');
  });
  return {
    get pid() {
      return pid;
    },
    stopWatching: () => clearInterval(watch),
  };
}

// A pool of one host (the default on 2 CPUs) recycles it when it outgrows hostMemoryMb (or when V8
// parks a lost isolate's thread). The host still runs every other isolate as before: it keeps taking
// executions until its replacement is ready, and only then drains. Here the replacement is stopped
// the moment it is forked, so it cannot become ready: another tenant's component must render
// meanwhile, on the host being replaced, rather than wait for a host to start.
t.test('a host recycled for its memory serves other tenants until its replacement is ready', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  const started = await startRegistry(t, [ofTenant('hoarder', fixture('hostile-intl-hoard')), BYSTANDER], (config) => {
    config.limits.hostMemoryMb = 96;
  });
  const { registry, url } = started;
  t.equal(registry.pool.size, 1, 'one sandbox host');
  await hostsUp(registry, 1);
  await bystanderRenders(t, started, 'Before', 'bystander before');
  const [first] = registry.pool.hostProcessIds();
  const replacement = stopTheReplacement(t, registry, first!);

  // 1500 formatters hold about 40 MB outside the heap: the host passes 96 MB and is recycled.
  const hoard = await request(`${url}hostile-intl-hoard?count=1500`);
  t.same([hoard.status, hoard.body.html], [200, '<p>1500 kept, 1,234.5</p>'], 'the request that grew the host is answered');
  await until(() => replacement.pid !== undefined);
  replacement.stopWatching();

  t.ok(running(first!), 'the host being replaced still runs');
  for (const who of ['One', 'Two', 'Three']) await bystanderRenders(t, started, who, 'another tenant renders while the replacement cannot start');
  t.same(registry.pool.hostProcessIds(), [replacement.pid], 'the stopped replacement still holds the slot: nothing waited for it to be killed and started again');

  process.kill(replacement.pid!, 'SIGCONT');
  await until(() => !running(first!));
  await bystanderRenders(t, started, 'After', 'bystander on the replacement');
  t.same(registry.pool.hostProcessIds(), [replacement.pid], 'the replacement took over');
  t.equal(registry.pool.stats().hosts, 1, 'one host ready');
  t.match((await request(`${url}metrics`)).text, /^tessera_sandbox_host_restarts_total\{reason="memory"\} 1$/m, 'the host was recycled once');
});

/** Polls until the condition holds or `ms` pass; answers whether it held. */
async function within(ms: number, condition: () => boolean): Promise<boolean> {
  const until = performance.now() + ms;
  while (!condition() && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
  return condition();
}

// A lost isolate whose thread is still inside a built-in (`new Array(1e8).fill(0)` has no interrupt
// check) takes CPU and memory beside whatever else runs in its host: that host must not stand in
// for its replacement, even when no other host would take its executions meanwhile.
t.test('a host whose lost isolate still runs inside a built-in drains at once, with no host to take over', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  const BUILTIN = 'hostile-unstoppable-builtin';
  const started = await startRegistry(t, [ofTenant('mallory', fixture(BUILTIN)), BYSTANDER], (config) => {
    config.limits.memoryMb = 64;
    // Well above the time the bomb needs on a loaded machine: the memory watchdog stops it.
    config.limits.executionTimeoutMs = 30_000;
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  await bystanderRenders(t, started, 'Before', 'bystander before');
  const [first] = registry.pool.hostProcessIds();

  const replacement = stopTheReplacement(t, registry, first!);

  const hostile = await request(`${url}${BUILTIN}`);
  t.same([hostile.status, hostile.body.code], [500, 'MEMORY_LIMIT_EXCEEDED'], 'the bomb is stopped');
  await until(() => replacement.pid !== undefined);
  replacement.stopWatching();
  // A stand-in would run until the stopped replacement is killed at its 15 s start limit.
  t.ok(await within(10_000, () => !running(first!)), 'the host that lost it ended while its replacement could not start');
  t.same(registry.pool.hostProcessIds(), [replacement.pid], 'the stopped replacement holds the slot');

  const waiting = bystanderRenders(t, started, 'Waiting', 'a render sent meanwhile waits for the replacement, then answers');
  process.kill(replacement.pid!, 'SIGCONT');
  await waiting;
  t.match((await request(`${url}metrics`)).text, /^tessera_sandbox_host_restarts_total\{reason="isolate-lost"\} 1$/m, 'the host was recycled once');
});

// The stand-in serves past its host's limits, so only for as long as a new host is given to start
// (15 s). Here every replacement is stopped the moment it is forked: each is killed at that limit
// and started again, and none is ever ready. Without the bound, the host recycled for its memory
// would take executions for good.
t.test('a stand-in drains once a new host has had its time to start, though none is ready', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  const started = await startRegistry(t, [ofTenant('hoarder', fixture('hostile-intl-hoard')), BYSTANDER], (config) => {
    config.limits.hostMemoryMb = 96;
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  const [first] = registry.pool.hostProcessIds();
  const stopped = new Set<number>();
  const watch = setInterval(() => {
    for (const pid of registry.pool.hostProcessIds()) {
      if (pid === first || stopped.has(pid)) continue;
      stopped.add(pid);
      process.kill(pid, 'SIGSTOP');
    }
  }, 1);
  t.teardown(() => {
    clearInterval(watch);
    for (const pid of stopped) if (running(pid)) process.kill(pid, 'SIGCONT');
  });

  const hoard = await request(`${url}hostile-intl-hoard?count=1500`);
  t.same([hoard.status, hoard.body.html], [200, '<p>1500 kept, 1,234.5</p>'], 'the request that grew the host is answered');
  await until(() => stopped.size > 0);
  await bystanderRenders(t, started, 'Standing', 'another tenant renders on the stand-in');
  t.ok(await within(40_000, () => !running(first!)), 'the stand-in ended though no replacement became ready');
  t.equal(registry.pool.stats().hosts, 0, 'no host is ready');

  clearInterval(watch);
  for (const pid of stopped) if (running(pid)) process.kill(pid, 'SIGCONT');
  await bystanderRenders(t, started, 'After', 'once a replacement may start, it serves');
});
