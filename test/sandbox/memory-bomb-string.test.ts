import t from 'tap';
import { fixture, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, hostileBesideBystander } from './bystander';

t.test('a string that doubles past the memory limit answers 500 MEMORY_LIMIT_EXCEEDED and spares the bystander', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-memory-string'), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    config.limits.memoryMb = 16;
  });
  const expected = {
    status: 500,
    body: {
      code: 'MEMORY_LIMIT_EXCEEDED',
      error: 'The component passed its sandbox memory limit; its sandbox was discarded.',
      name: 'hostile-memory-string',
      requestVersion: '',
    },
  };
  await hostileBesideBystander(t, started, 'hostile-memory-string', expected);
  await hostileBesideBystander(t, started, 'hostile-memory-string', expected);
});
