import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, hostileBesideBystander } from './bystander';

t.test('an array that grows past the memory limit answers 500 MEMORY_LIMIT_EXCEEDED; the isolate is rebuilt', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-memory-array'), BYSTANDER], (config) => {
    config.limits.memoryMb = 16;
    config.limits.sandboxHosts = 1; // one isolate per version, so its request counter tells warm from rebuilt
  });
  const served = async (count: number, message: string) => {
    const { status, text } = await request(`${started.url}hostile-memory-array`);
    t.equal(status, 200, `${message}: status`);
    t.equal(JSON.parse(text).html, `<p>served ${count}</p>`, message);
  };
  await served(1, 'the first request builds the isolate');
  await served(2, 'the second one finds it warm');
  await hostileBesideBystander(t, started, 'hostile-memory-array?grow=true', {
    status: 500,
    body: {
      code: 'MEMORY_LIMIT_EXCEEDED',
      error: 'The component passed its sandbox memory limit; its sandbox was discarded.',
      name: 'hostile-memory-array',
      requestVersion: '',
    },
  });
  await served(1, 'the discarded isolate was rebuilt: its counter starts again');
});
