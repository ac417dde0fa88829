import t from 'tap';
import { packageComponent } from '../../src/packager/package-component';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';

const SPINNERS = 8;

t.test('more spinning isolates than CPUs do not starve other components of the sandbox threads', async (t) => {
  const started = await startRegistry(t, [BYSTANDER], (config) => {
    config.limits.executionTimeoutMs = 1500;
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
  await bystanderRenders(t, started, 'Before', 'before the spinning starts');

  const spinStarted = performance.now();
  const spinning = Array.from({ length: SPINNERS }, (_, minor) => request(`${started.url}hostile-sync-loop/1.${minor}.0`));
  // Wait until every spinner's isolate is built (and so spinning), then render beside them.
  while ((await started.registry.pool.stats()).warmIsolates < SPINNERS + 1) await new Promise((resolve) => setTimeout(resolve, 20));
  for (const who of ['First', 'Second', 'Third']) await bystanderRenders(t, started, who, `bystander beside ${SPINNERS} spinning isolates`);
  t.ok(performance.now() - spinStarted < 1500, 'all while the spinners were still spinning');

  const answers = await Promise.all(spinning);
  t.same(
    answers.map(({ status }) => status),
    Array.from({ length: SPINNERS }, () => 504),
  );
});
