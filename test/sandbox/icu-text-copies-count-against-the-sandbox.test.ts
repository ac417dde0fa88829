import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';
import { hostsResidentBytes, hostsUp } from './wait-for';

const HOARD = 'hostile-icu-hoard';
const SEGMENTED_TOO_MUCH = "The component segmented more text than its sandbox may hold outside its memory limit (2000 Intl objects' worth).";
const SLOW_LOOKUP = { name: 'lookup', description: 'answers after a while', func: () => new Promise((resolve) => setTimeout(() => resolve(42), 1500)) };

// Each test waits on its own registry (the second on a plugin's 1.5 s sleeps): both at once.
t.jobs = 2;

// ICU keeps a copy of every text a segmenter (or V8's older break iterator) is given, outside the
// heap, where neither the memory limit nor the heap statistics see it: 24 requests kept ~1.8 GB
// with 200 answers, past the host's limit. A segmented text now counts toward the Intl budget by
// its size, and the break iterator is gone.
t.test("ICU's copies of segmented text count against the isolate's budget; the break iterator is gone", async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture(HOARD)), ofTenant('ada', BYSTANDER)], (config) => {
    config.limits.hostMemoryMb = 700;
    // Beside a busy loop per CPU (and a third), the segmenting passed the default 5 s before the
    // Intl budget stopped it (504). The budget is under test, not the time limit.
    config.limits.executionTimeoutMs = 30_000;
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  const segmented = await request(`${url}${HOARD}?via=Segmenter`);
  t.equal(segmented.status, 500);
  t.same(segmented.body, { code: 'MEMORY_LIMIT_EXCEEDED', error: SEGMENTED_TOO_MUCH, name: HOARD, requestVersion: '' });
  const iterator = await request(`${url}${HOARD}?via=v8BreakIterator`);
  t.equal(iterator.status, 500);
  t.equal(iterator.body.code, 'GENERIC_ERROR');
  t.match(iterator.body.error, /^Component "hostile-icu-hoard" failed: .*v8BreakIterator is not a constructor$/, 'V8\'s break iterator is not there');
  t.ok(hostsResidentBytes(registry) < 700 * 1024 * 1024, `the host stays within hostMemoryMb (${Math.round(hostsResidentBytes(registry) / 2 ** 20)} MB)`);
  await bystanderRenders(t, started, 'After', 'another tenant after the hoard');
});

// A bystander asleep in a plugin call while another tenant's version takes memory as it builds used
// to be blamed for the host's growth: discarded, counted lost, and quarantined after three rounds.
t.test("memory another tenant's version takes while it builds never costs a bystander its answer", async (t) => {
  const started = await startRegistry(t, [ofTenant('ada', fixture('busy-bystander')), ofTenant('mallory', fixture('hostile-icu-hoard-at-load'))], (config) => {
    config.plugins = [SLOW_LOOKUP];
    // The hoard reaches its memory limit as it builds: on a machine whose CPUs were busy with other
    // work, the build passed 4 s first (504). The memory limit is under test, not the time limit.
    config.limits.executionTimeoutMs = 30_000;
  });
  const { registry, url } = started;
  for (let round = 1; round <= 3; round++) {
    await hostsUp(registry, registry.pool.size);
    const busy = request(`${url}busy-bystander?lookup=true`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const hoard = await request(`${url}hostile-icu-hoard-at-load`);
    t.same([hoard.status, hoard.body.code], [500, 'MEMORY_LIMIT_EXCEEDED'], `round ${round}: the hoard is refused as it builds`);
    const answer = await busy;
    t.equal(answer.status, 200, `round ${round}: the bystander's answer stands`);
    t.match(answer.body.html, /looked up 42/);
  }
  t.equal((await request(`${url}busy-bystander`)).status, 200, 'the bystander is not quarantined');
  const metrics = parseMetrics((await request(`${url}metrics`)).text);
  t.equal(valueOf(metrics, 'tessera_sandbox_isolates_lost_total', { tenant: 'ada' }), 0, 'no loss counts against the bystander');
});
