import t from 'tap';
import { fixture, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { BYSTANDER, hostileBesideBystander } from './bystander';

t.test('a recursion that overflows the stack answers 500 GENERIC_ERROR and spares the bystander', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-stack-overflow'), BYSTANDER], TWO_HOSTS);
  const expected = {
    status: 500,
    body: {
      code: 'GENERIC_ERROR',
      error: 'Component "hostile-stack-overflow" failed: Maximum call stack size exceeded',
      name: 'hostile-stack-overflow',
      requestVersion: '',
    },
  };
  await hostileBesideBystander(t, started, 'hostile-stack-overflow', expected);
  await hostileBesideBystander(t, started, 'hostile-stack-overflow', expected);
});
