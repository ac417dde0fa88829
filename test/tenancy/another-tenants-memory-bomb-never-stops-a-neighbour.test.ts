import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { parseMetrics, valueOf } from '../sandbox/parse-metrics';
import { hostsUp, until } from '../sandbox/wait-for';

const BOMB = 'hostile-memory-buffers';
const MEMORY_KILL = { code: 'MEMORY_LIMIT_EXCEEDED', error: 'The component passed its sandbox memory limit.', name: BOMB, requestVersion: '' };

// The host's memory watchdog counted an isolate's growth from when its call began. A neighbour of
// another tenant whose call outlived a memory bomb beside it (asleep in a plugin call, or computing)
// was then blamed for the bomb's memory, which the host had not given back yet: its request answered
// MEMORY_LIMIT_EXCEEDED, its isolate discarded. Neither case may cost the neighbour anything.
t.test("another tenant's memory bombs never stop a neighbour's execution beside them, asleep in a plugin call or computing", async (t) => {
  let pluginCalled = false;
  let release: (value: string) => void = () => {};
  const held = new Promise<string>((resolve) => (release = resolve));
  const started = await startRegistry(t, [ofTenant('ada', fixture('busy-bystander')), ofTenant('mallory', fixture(BOMB))], (config) => {
    // The neighbour's plugin call answers when the test says.
    config.plugins = [{ name: 'lookup', description: 'answers when released', func: () => ((pluginCalled = true), held) }];
    // One host: the bombs and the neighbour share it. The neighbour computes for 6 s; the time limit is not under test.
    config.limits.sandboxHosts = 1;
    config.limits.executionTimeoutMs = 30_000;
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  const metrics = async () => parseMetrics((await request(`${url}metrics`)).text);
  const bombs = async (what: string) => {
    for (let round = 1; round <= 3; round++) {
      const bomb = await request(`${url}${BOMB}`);
      t.same([bomb.status, bomb.body], [500, MEMORY_KILL], `${what}: bomb ${round} is stopped`);
    }
  };
  t.equal((await request(`${url}busy-bystander?cpu=10`)).status, 200, 'the neighbour is warm');

  // Asleep in a plugin call: the call is answered once the bombs went off.
  const sleeper = request(`${url}busy-bystander?lookup=true`);
  await until(() => pluginCalled);
  await bombs('beside a plugin call');
  release('at last');
  const slept = await sleeper;
  t.same([slept.status, slept.body.code, slept.body.html], [200, undefined, '<p>served 2: looked up at last</p>'], 'the neighbour asleep in its plugin call is answered, in the isolate it warmed');

  // Computing: its host reports it busy, and the bombs go off while it works on.
  let computed = false;
  const worker = request(`${url}busy-bystander?cpu=6000`).finally(() => (computed = true));
  await until(async () => valueOf(await metrics(), 'tessera_sandbox_busy_components') === 1);
  await bombs('beside a computation');
  t.notOk(computed, 'the bombs went off while the neighbour computed');
  const worked = await worker;
  t.same([worked.status, worked.body.code], [200, undefined], 'the computing neighbour is answered');
  t.match(worked.body.html, /^<p>served 3: worked 6000 ms \(some primes\)<\/p>$/, 'in the isolate it warmed');

  const samples = await metrics();
  t.equal(valueOf(samples, 'tessera_memory_limit_kills_total', { component: BOMB, tenant: 'mallory' }), 6, "the bombs' kills are mallory's");
  t.equal(valueOf(samples, 'tessera_memory_limit_kills_total', { component: 'busy-bystander', tenant: 'ada' }), 0, 'none is counted against the neighbour');
});
