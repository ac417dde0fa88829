import t from 'tap';
import { fixture, request } from '../helpers/start-registry';
import { BYSTANDER } from './bystander';
import { startChildRegistry } from './child-registry';

t.test('an allocation V8 itself cannot survive costs only its isolate: MEMORY_LIMIT_EXCEEDED, the registry keeps serving', async (t) => {
  // In a child process: without containment this aborts the whole process, and after it the
  // process can only be killed, since the parked thread of the lost isolate is never joined.
  const url = await startChildRegistry(t, [fixture('hostile-memory-catastrophic'), BYSTANDER]);

  const greet = async (who: string) => {
    const { status, body } = await request(`${url}hello-world?name=${who}`);
    t.equal(status, 200, `bystander ${who}`);
    t.match(body.html, `<p class="hello-world">Hello, ${who}!</p>`);
  };
  await greet('Before');
  for (const attempt of ['first', 'second']) {
    // A 500 with this body, not a 504 at the time limit: V8's failure is answered at once.
    const [hostile] = await Promise.all([request(`${url}hostile-memory-catastrophic`), greet('Concurrent')]);
    t.equal(hostile.status, 500, `${attempt} attempt`);
    t.same(hostile.body, {
      code: 'MEMORY_LIMIT_EXCEEDED',
      error: 'The component passed its sandbox memory limit; its sandbox was discarded.',
      name: 'hostile-memory-catastrophic',
      requestVersion: '',
    });
    await greet('After');
  }
  const metrics = (await request(`${url}metrics`)).text;
  t.match(metrics, /^tessera_sandbox_isolates_lost_total 2$/m, 'both lost isolates are counted');
  t.match(metrics, /^tessera_memory_limit_kills_total\{component="hostile-memory-catastrophic"\} 2$/m);
});
