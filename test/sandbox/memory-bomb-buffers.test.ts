import t from 'tap';
import { fixture, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders, hostileBesideBystander } from './bystander';

t.test('array buffers past the memory limit (resizable ones included) answer 500 MEMORY_LIMIT_EXCEEDED', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-memory-buffers'), BYSTANDER], (config) => {
    config.limits.memoryMb = 16;
  });
  await bystanderRenders(t, started, 'Warm', 'the workers are up');
  const rssBefore = process.memoryUsage.rss();
  const expected = {
    status: 500,
    body: { code: 'MEMORY_LIMIT_EXCEEDED', error: 'The component passed its sandbox memory limit.', name: 'hostile-memory-buffers', requestVersion: '' },
  };
  const elapsed = await hostileBesideBystander(t, started, 'hostile-memory-buffers', expected);
  t.ok(elapsed < 3000, `refused when the buffers reached the limit, not at the time limit (${Math.round(elapsed)} ms)`);
  const grown = (process.memoryUsage.rss() - rssBefore) / 2 ** 20;
  t.ok(grown < 100, `the process did not take the buffers' memory (${Math.round(grown)} MB more)`);
});
