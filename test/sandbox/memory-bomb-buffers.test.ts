import t from 'tap';
import { fixture, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders, hostileBesideBystander } from './bystander';
import { hostsResidentBytes } from './wait-for';

t.test('array buffers past the memory limit answer 500 MEMORY_LIMIT_EXCEEDED; resizable ones are refused', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-memory-buffers'), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    config.limits.memoryMb = 16;
  });
  await bystanderRenders(t, started, 'Warm', 'the hosts are up');
  const rssBefore = hostsResidentBytes(started.registry);
  const refused = { code: 'MEMORY_LIMIT_EXCEEDED', error: 'The component passed its sandbox memory limit.', name: 'hostile-memory-buffers', requestVersion: '' };
  // The allocator refuses the buffer past the limit; if V8 collects first and finds the isolate over
  // its limit with the buffers still held, isolated-vm discards it instead (seen once in seven full runs of the suite).
  const elapsed = await hostileBesideBystander(t, started, 'hostile-memory-buffers', {
    status: 500,
    body: refused,
    orBody: { ...refused, error: 'The component passed its sandbox memory limit; its sandbox was discarded.' },
  });
  t.ok(elapsed < 3000, `refused when the buffers reached the limit, not at the time limit (${Math.round(elapsed)} ms)`);
  await hostileBesideBystander(t, started, 'hostile-memory-buffers?kind=resizable', {
    status: 500,
    body: {
      code: 'GENERIC_ERROR',
      error: 'Component "hostile-memory-buffers" failed: Resizable buffers are not available in the sandbox: ArrayBuffer takes no maxByteLength.',
      name: 'hostile-memory-buffers',
      requestVersion: '',
    },
  });
  const grown = (hostsResidentBytes(started.registry) - rssBefore) / 2 ** 20;
  t.ok(grown < 100, `the hosts did not keep the buffers' memory (${Math.round(grown)} MB more)`);
});
