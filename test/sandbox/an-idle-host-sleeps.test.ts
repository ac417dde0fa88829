import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { hostsSleeps, until } from './wait-for';

// A sandbox host's memory watchdog reads every 25 ms and its busy report every 100 ms, but only while
// an isolate is at work: awake all the time they were most of an idle registry's CPU (about 57
// wake-ups a second per host). Idle, a host wakes for its owner's pings and its housekeeping alone,
// a few times a second; the first work after a sleep is watched as before.

/** Wake-ups of one idle host per second, at most: its pings (2), housekeeping (2), its fronts, V8's threads (about 11 in all); timers always awake made it 62. */
const IDLE_WAKE_UPS_PER_SECOND = 25;
const HOSTS = 2;
const MEASURED_MS = 3000;

t.test('hosts idle after a render sleep between their housekeeping, and the next render is served', async (t) => {
  const NAME = 'core-params';
  const started = await startRegistry(t, [fixture(NAME)], (config) => {
    config.limits.sandboxHosts = HOSTS;
  });
  const first = await request(`${started.url}${NAME}/1.0.0?city=Oslo`);
  t.equal(first.status, 200, 'a render wakes the timers');
  // Until nothing is at work: the busy report and the watchdog sleep a tick after.
  await until(() => started.registry.pool.stats().warmIsolates >= 1);
  await new Promise((resolve) => setTimeout(resolve, 500));

  const before = hostsSleeps(started.registry);
  await new Promise((resolve) => setTimeout(resolve, MEASURED_MS));
  const perSecond = (hostsSleeps(started.registry) - before) / (MEASURED_MS / 1000) / HOSTS;
  t.ok(perSecond <= IDLE_WAKE_UPS_PER_SECOND, `an idle host woke ${perSecond.toFixed(1)} times a second (at most ${IDLE_WAKE_UPS_PER_SECOND})`);

  const again = await request(`${started.url}${NAME}/1.0.0?city=Rome`);
  t.equal(again.status, 200, 'the first work after the sleep is served');
  t.ok(again.body.html?.includes('<pre>{"city":"string","units":"string","days":"number","compact":"boolean"}</pre>'), 'with its view');
});
