import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, hostileBesideBystander } from './bystander';

t.test('a view model too large to leave the sandbox is refused inside it: 500 MEMORY_LIMIT_EXCEEDED', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-huge-result'), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    config.limits.maxResultBytes = 100_000;
    config.limits.memoryMb = 32;
  });
  const small = await request(`${started.url}hostile-huge-result?chars=5`);
  t.equal(small.status, 200);
  t.equal(small.body.html, '<p>xxxxx</p>', 'a result under the limit leaves the sandbox');

  await hostileBesideBystander(t, started, 'hostile-huge-result?chars=200000', {
    status: 500,
    body: {
      code: 'MEMORY_LIMIT_EXCEEDED',
      error: "The component's result is larger than the 100000 characters allowed to leave the sandbox.",
      name: 'hostile-huge-result',
      requestVersion: '',
    },
  });
  // 100 MB of view model: the isolate cannot even serialize it within its own memory limit.
  await hostileBesideBystander(t, started, 'hostile-huge-result?chars=100000000', {
    status: 500,
    body: {
      code: 'MEMORY_LIMIT_EXCEEDED',
      error: 'The component passed its sandbox memory limit; its sandbox was discarded.',
      name: 'hostile-huge-result',
      requestVersion: '',
    },
  });
});
