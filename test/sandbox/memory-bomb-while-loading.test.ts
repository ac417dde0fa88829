import t from 'tap';
import { fixture, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, hostileBesideBystander } from './bystander';

const NAME = 'hostile-memory-while-loading';

t.test('a module that passes the memory limit while it loads answers 500 MEMORY_LIMIT_EXCEEDED, each time, beside a bystander', async (t) => {
  const started = await startRegistry(t, [fixture(NAME), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    config.limits.memoryMb = 16;
  });
  const expected = {
    status: 500,
    body: { code: 'MEMORY_LIMIT_EXCEEDED', error: 'The component passed its sandbox memory limit; its sandbox was discarded.', name: NAME, requestVersion: '' },
  };
  await hostileBesideBystander(t, started, NAME, expected);
  // Nothing of the failed build is kept: the next request builds it again, and fails the same way.
  await hostileBesideBystander(t, started, NAME, expected);
});
