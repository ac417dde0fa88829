import os from 'node:os';
import t from 'tap';
import { packageComponent } from '../../src/packager/package-component';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { warmIsolates, hostsUp } from './wait-for';

// isolated-vm runs isolates on a pool of (CPUs + 1) threads: spin on more than that.
const POOL_THREADS = os.availableParallelism() + 1;
const SPINNERS = POOL_THREADS + 3;

t.test('more spinning isolates than sandbox threads do not starve other components', async (t) => {
  const started = await startRegistry(t, [BYSTANDER], (config) => {
    config.limits.executionTimeoutMs = 3000; // warm isolates are reported every half second
  });
  // The same spinning component under several versions: each version is an isolate of its own.
  const packaged = await packageComponent(fixture('hostile-sync-loop'));
  for (let minor = 0; minor < SPINNERS; minor++) {
    const version = `1.${minor}.0`;
    const files = new Map(packaged.files);
    files.set('package.json', Buffer.from(JSON.stringify({ ...packaged.descriptor, version })));
    await started.registry.storage.writeVersion('hostile-sync-loop', version, files);
    await started.registry.catalog.add('hostile-sync-loop', version);
  }
  await hostsUp(started.registry, 2);
  await bystanderRenders(t, started, 'Before', 'before the spinning starts');

  let spinnersAnswered = 0;
  const spinning = Array.from({ length: SPINNERS }, (_, minor) => request(`${started.url}hostile-sync-loop/1.${minor}.0`).finally(() => spinnersAnswered++));
  await warmIsolates(started.registry, 1 + POOL_THREADS + 1);
  for (const who of ['First', 'Second', 'Third']) await bystanderRenders(t, started, who, `bystander beside ${SPINNERS} spinning isolates`);
  t.equal(spinnersAnswered, 0, 'all while the spinners were still spinning');

  const answers = await Promise.all(spinning);
  t.same(
    answers.map(({ status, body }) => ({ status, body })),
    Array.from({ length: SPINNERS }, (_, minor) => ({
      status: 504,
      body: { code: 'EXECUTION_TIMEOUT', error: 'The component passed its execution time limit.', name: 'hostile-sync-loop', requestVersion: `1.${minor}.0` },
    })),
  );
});
