import os from 'node:os';
import t from 'tap';
import { packagedFixture } from '../helpers/packaged-fixture';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { warmIsolates, hostsUp } from './wait-for';

// isolated-vm runs isolates on a pool of (CPUs + 1) threads: spin on more than that.
const POOL_THREADS = os.availableParallelism() + 1;
const SPINNERS = POOL_THREADS + 3;

t.test('more spinning isolates than sandbox threads do not starve other components', async (t) => {
  const started = await startRegistry(t, [BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    // Warm isolates are reported every half second; the spinners outlast three bystander renders on a
    // busy machine (about 1.1 s from the spin's start beside a busy loop on each CPU), and spin on every CPU till then.
    config.limits.executionTimeoutMs = 3000;
  });
  // The same spinning code under several component names: each component is an isolate of its own
  // (the versions of one component would share one).
  const packaged = await packagedFixture(fixture('hostile-sync-loop'));
  const spinner = (index: number) => `hostile-sync-loop-${index}`;
  for (let index = 0; index < SPINNERS; index++) {
    const files = new Map(packaged.files);
    files.set('package.json', Buffer.from(JSON.stringify({ ...packaged.descriptor, name: spinner(index) })));
    await started.registry.storage.writeVersion(spinner(index), '1.0.0', files);
    await started.registry.catalog.add(spinner(index), '1.0.0');
  }
  await hostsUp(started.registry, 2);
  await bystanderRenders(t, started, 'Before', 'before the spinning starts');

  let spinnersAnswered = 0;
  const spinning = Array.from({ length: SPINNERS }, (_, index) => request(`${started.url}${spinner(index)}`).finally(() => spinnersAnswered++));
  await warmIsolates(started.registry, 1 + POOL_THREADS + 1);
  for (const who of ['First', 'Second', 'Third']) await bystanderRenders(t, started, who, `bystander beside ${SPINNERS} spinning isolates`);
  t.equal(spinnersAnswered, 0, 'all while the spinners were still spinning');

  const answers = await Promise.all(spinning);
  t.same(
    answers.map(({ status, body }) => ({ status, body })),
    Array.from({ length: SPINNERS }, (_, index) => ({
      status: 504,
      body: { code: 'EXECUTION_TIMEOUT', error: 'The component passed its execution time limit.', name: spinner(index), requestVersion: '' },
    })),
  );
});
