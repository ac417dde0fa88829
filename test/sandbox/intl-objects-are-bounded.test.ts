import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { hostsResidentBytes, hostsUp } from './wait-for';

const NAME = 'hostile-intl-hoard';

t.test('Intl objects kept in module state cannot grow a host past the memory limit', async (t) => {
  const started = await startRegistry(t, [fixture(NAME), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 1;
  });
  await hostsUp(started.registry, 1);
  await bystanderRenders(t, started, 'Before', 'bystander before');
  const before = hostsResidentBytes(started.registry);
  // Each request keeps 1500 formatters (about 40 MB outside the heap): past 1000 the isolate is
  // rebuilt once idle, which frees them, so every request starts from a fresh module state.
  for (let round = 0; round < 8; round++) {
    const { status, body } = await request(`${started.url}${NAME}?count=1500`);
    t.equal(status, 200, `round ${round}: status`);
    t.equal(body.html, '<p>1500 kept, 1,234.5</p>', `round ${round}: a fresh isolate each time`);
  }
  const grown = (hostsResidentBytes(started.registry) - before) / 2 ** 20;
  t.ok(grown < 200, `the host grew by ${Math.round(grown)} MB (unbounded: more than 300 MB)`);

  const { status, body } = await request(`${started.url}${NAME}?count=5000`);
  t.equal(status, 500, 'more than 2000 in one isolate are refused');
  t.same(body, {
    code: 'MEMORY_LIMIT_EXCEEDED',
    error: 'The component created more than 2000 Intl objects in its sandbox, which holds them outside its memory limit.',
    name: NAME,
    requestVersion: '',
  });
  await bystanderRenders(t, started, 'After', 'bystander after');
});
