import t from 'tap';
import { DEMO, fixture, ofTenant, request, startRegistry, type TenantComponent } from '../helpers/start-registry';
import { parseMetrics, valueOf } from '../sandbox/parse-metrics';
import { hostsUp, until } from '../sandbox/wait-for';
import path from 'node:path';

const HOG = 'hostile-explained-hog';
const ALIBIS = ['alibi-one', 'alibi-two', 'alibi-three', 'alibi-four', 'alibi-five'];
const ALIBI_MB = 24;
/** About 100 MB of dictionary inside one `fill`: past twice the memory limit (2 × 32 MB). */
const FILL = 'spinMs=700&count=1000000';
const alibi = (name: string): TenantComponent => ({ dir: fixture('hostile-heap-alibi'), tenant: 'mallory', name });
const HELLO = path.join(DEMO, 'hello-world');

// The memory watchdog stops the one isolate at work through the host's growth, "unless other
// isolates worked meanwhile, however briefly: their heaps, read once idle, explain their part of the
// growth". A heap reading is no measure of what the host holds: an ArrayBuffer never written counts
// in an isolate's heap statistics at once, and none of it is resident. The hog's own tenant runs five
// quick executions while the hog computes, each keeping such a buffer: 120 MB of "explanation" that
// took no memory, and the hog then grows the host by about 100 MB inside one built-in, unstopped.
// Memory an isolate takes beyond its limit must be stopped wherever its code is (decisions §13).
t.test('quick executions keeping untouched buffers do not excuse a hog growing the host inside a built-in', async (t) => {
  const { registry, url } = await startRegistry(t, [ofTenant('mallory', fixture(HOG)), ...ALIBIS.map(alibi), ofTenant('ada', HELLO)], (config) => {
    config.limits.sandboxHosts = 1;
    config.limits.memoryMb = 32;
    config.limits.executionTimeoutMs = 8000;
  });
  const warmUp = async (): Promise<void> => {
    await hostsUp(registry, 1);
    t.equal((await request(`${url}${HOG}`)).status, 200, 'the hog warm');
    for (const name of ALIBIS) t.equal((await request(`${url}${name}`)).status, 200, `${name} warm`);
  };

  // The hog alone: stopped by the watchdog.
  await warmUp();
  const pids = registry.pool.hostProcessIds();
  const alone = await request(`${url}${HOG}?${FILL}`);
  t.same([alone.status, alone.body.code], [500, 'MEMORY_LIMIT_EXCEEDED'], 'alone, the hog is stopped inside its built-in');
  // Its thread may have outlived the stop (the host is then recycled): a fresh host for the attack.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await until(() => registry.pool.stats().hosts === 1 && (registry.pool.hostProcessIds()[0] !== pids[0] || registry.pool.stats().busyComponents === 0));
  await warmUp();

  // The same hog, while its tenant's alibis each keep an untouched buffer.
  const hog = request(`${url}${HOG}?${FILL}`);
  await new Promise((resolve) => setTimeout(resolve, 150));
  const alibis = await Promise.all(ALIBIS.map((name) => request(`${url}${name}?mb=${ALIBI_MB}`)));
  t.same(
    alibis.map((answer) => answer.status),
    ALIBIS.map(() => 200),
    'each alibi kept its buffer in a quick execution while the hog computed',
  );
  const answer = await hog;
  t.same([answer.status, answer.body.code], [500, 'MEMORY_LIMIT_EXCEEDED'], "the hog is stopped all the same: untouched buffers explain none of the host's growth");

  const metrics = parseMetrics((await request(`${url}metrics`)).text);
  t.equal(valueOf(metrics, 'tessera_memory_limit_kills_total', { component: HOG, tenant: 'mallory' }), 2, 'both fills count as memory kills of the hog');
  const hello = await request(`${url}hello-world/1.0.0?name=Ada`);
  t.equal(hello.status, 200, "another tenant's component answers");
});
