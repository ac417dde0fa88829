import { spawn } from 'node:child_process';
import path from 'node:path';
import { once } from 'node:events';
import t from 'tap';
import { fixture, request } from '../helpers/start-registry';
import { BYSTANDER } from './bystander';

t.test('an allocation V8 itself cannot survive costs only its isolate: MEMORY_LIMIT_EXCEEDED, the registry keeps serving', async (t) => {
  // In a child process: without containment this aborts the whole process, and after it the
  // process can only be killed, since the parked thread of the lost isolate is never joined.
  const child = spawn(
    process.execPath,
    ['--no-node-snapshot', path.join(__dirname, 'registry-in-child-process.js'), fixture('hostile-memory-catastrophic'), BYSTANDER],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  t.teardown(() => void child.kill('SIGKILL'));
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  const { url } = JSON.parse(line.toString('utf8').split('\n')[0]!) as { url: string };

  const greet = async (who: string) => {
    const { status, body } = await request(`${url}hello-world?name=${who}`);
    t.equal(status, 200, `bystander ${who}`);
    t.match(body.html, `<p class="hello-world">Hello, ${who}!</p>`);
  };
  await greet('Before');
  for (const attempt of ['first', 'second']) {
    const started = performance.now();
    const [hostile] = await Promise.all([request(`${url}hostile-memory-catastrophic`), greet('Concurrent')]);
    t.equal(hostile.status, 500, `${attempt} attempt`);
    t.same(hostile.body, {
      code: 'MEMORY_LIMIT_EXCEEDED',
      error: 'The component passed its sandbox memory limit; its sandbox was discarded.',
      name: 'hostile-memory-catastrophic',
      requestVersion: '',
    });
    t.ok(performance.now() - started < 5000, `answered before the time limit (${Math.round(performance.now() - started)} ms)`);
    await greet('After');
  }
  t.equal(child.exitCode, null, 'the registry process is still running');
  const metrics = (await request(`${url}metrics`)).text;
  t.match(metrics, /^tessera_sandbox_isolates_lost_total 2$/m, 'both lost isolates are counted');
  t.match(metrics, /^tessera_memory_limit_kills_total\{component="hostile-memory-catastrophic"\} 2$/m);
});
