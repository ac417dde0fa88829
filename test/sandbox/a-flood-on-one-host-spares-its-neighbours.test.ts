import t from 'tap';
import { homeSlot } from '../../src/sandbox/host-routing';
import { packagedFixture } from '../helpers/packaged-fixture';
import { fixture, request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { hostsUp, warmIsolates } from './wait-for';

const LIMIT_MS = 1500;
const FLOOD = 24;

/**
 * A component's executions stay on its home host until 32 are under way there. A tenant floods it
 * with executions that spin until their limit, all landing on the host the bystander calls home:
 * the bystander still answers, exactly, while they spin, and the flood ends at one limit, not at one
 * limit after another.
 */
t.test('a flood of spinning executions kept on one host spares the tenant beside it', async (t) => {
  const started = await startRegistry(t, [BYSTANDER], (config) => {
    TWO_HOSTS(config);
    config.limits.executionTimeoutMs = LIMIT_MS;
  });
  // The spinning code under the first name whose home host is the bystander's.
  const bystanderHome = homeSlot('hello-world', 2);
  const name = Array.from({ length: 16 }, (_, index) => `hostile-flood-${index}`).find((candidate) => homeSlot(candidate, 2) === bystanderHome)!;
  const packaged = await packagedFixture(fixture('hostile-sync-loop'));
  const files = new Map(packaged.files);
  files.set('package.json', Buffer.from(JSON.stringify({ ...packaged.descriptor, name })));
  await started.registry.storage.writeVersion(name, '1.0.0', files);
  await started.registry.catalog.add(name, '1.0.0');
  await hostsUp(started.registry, 2);
  await bystanderRenders(t, started, 'Before', 'before the flood');

  const floodStarted = performance.now();
  let answered = 0;
  const flood = Array.from({ length: FLOOD }, () => request(`${started.url}${name}`).finally(() => answered++));
  // The flood's isolate is built beside the bystander's, on the same host.
  await warmIsolates(started.registry, 2);
  for (const who of ['First', 'Second', 'Third']) await bystanderRenders(t, started, who, 'bystander on the flooded host');
  t.equal(answered, 0, 'all while the flood was still spinning');

  const answers = await Promise.all(flood);
  const elapsed = performance.now() - floodStarted;
  t.same(
    answers.map(({ status, body }) => [status, body.code]),
    Array.from({ length: FLOOD }, () => [504, 'EXECUTION_TIMEOUT']),
  );
  // In turn they would take FLOOD limits (36 s); half that leaves a busy machine room (8 s seen beside two suites).
  t.ok(elapsed < (FLOOD / 2) * LIMIT_MS, `the whole flood ended together (${Math.round(elapsed)} ms), not ${FLOOD} limits in turn`);
  await bystanderRenders(t, started, 'After', 'bystander after the flood');
});
