import t from 'tap';
import { DEMO, fixture, ofTenant, request, startRegistry, type TenantComponent } from '../helpers/start-registry';
import { hostsUp, until } from '../sandbox/wait-for';
import path from 'node:path';

const HOG = 'hostile-foreign-alibi-hog';
const ALIBIS = ['alibi-one', 'alibi-two', 'alibi-three', 'alibi-four', 'alibi-five'];
/** About 100 MB of dictionary inside one `fill`: past twice the memory limit (2 × 32 MB). */
const FILL = 'spinMs=700&count=1000000';
const alibi = (name: string): TenantComponent => ({ dir: fixture('hostile-heap-alibi'), tenant: 'eve', name });
const HELLO = path.join(DEMO, 'hello-world');

// The watchdog lets "isolates of other tenants that worked meanwhile" explain a hog's growth by
// their heaps' growth; only the hog's own tenant's heaps are refused as alibis. But the hog decides
// which other tenants' isolates work meanwhile: it asks for nested renders of another tenant's
// components (any tenant's published component that keeps an untouched ArrayBuffer will do) while
// it computes, 5 × 24 MB of heap that takes no resident memory, then grows the host by about
// 100 MB inside one built-in.
t.test("a hog's nested renders of another tenant's components keeping untouched buffers do not excuse it", async (t) => {
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
  await new Promise((resolve) => setTimeout(resolve, 300));
  await until(() => registry.pool.stats().hosts === 1 && (registry.pool.hostProcessIds()[0] !== pids[0] || registry.pool.stats().busyComponents === 0));
  await warmUp();

  // The same hog, making another tenant's components keep untouched buffers while it computes.
  const answer = await request(`${url}${HOG}?${FILL}&mb=24`);
  t.comment(`the hog answered ${answer.status}: ${answer.body.code ?? answer.body.html}`);
  t.same([answer.status, answer.body.code], [500, 'MEMORY_LIMIT_EXCEEDED'], "the hog is stopped all the same: another tenant's untouched buffers it caused explain none of the host's growth");

  const hello = await request(`${url}hello-world/1.0.0?name=Ada`);
  t.equal(hello.status, 200, "another tenant's component answers");
});
