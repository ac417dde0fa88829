import t from 'tap';
import { request } from '../helpers/start-registry';
import { publishFixture, startTemplatesRegistry } from './publish-fixture';

/**
 * Each type's loop spins to it; a memory bomb reaches the memory limit long before, even on a machine
 * whose CPUs are busy with other work (V8's last collections before its heap limit take their time:
 * a limit of one second was passed so).
 */
const TIMEOUT_MS = 2500;

/** Each type's hostile fixture, and the markup it renders when it does not attack. */
const CALM: Record<string, string> = {
  'hostile-esm-view': '<div data-oc-root><p>calm</p></div>',
  'hostile-react-view': '<div data-oc-root><p>calm</p></div>',
  'hostile-handlebars-view': '\n\n<p>calm</p>\n',
};

t.test('a view that loops or hoards memory while rendering gets the coded answers of server logic, whatever its template type', async (t) => {
  const { url } = await startTemplatesRegistry(t, (config) => {
    config.limits.sandboxHosts = 2;
    config.limits.executionTimeoutMs = TIMEOUT_MS;
    config.limits.memoryMb = 16;
  });
  for (const name of Object.keys(CALM)) {
    t.test(name, async (t) => {
      await publishFixture(url, name);
      const started = performance.now();
      const loop = await request(`${url}${name}?attack=loop`);
      const elapsed = performance.now() - started;
      t.same(
        { status: loop.status, body: loop.body },
        { status: 504, body: { code: 'EXECUTION_TIMEOUT', error: 'The component passed its execution time limit.', name, requestVersion: '' } },
        'a loop in the render ends at the time limit',
      );
      t.ok(elapsed >= TIMEOUT_MS && elapsed < 5 * TIMEOUT_MS, `stopped at the limit (${Math.round(elapsed)} ms)`);

      // The loop cost the version its sandbox: built again first, so that a slow build on a busy
      // machine (react-dom's is the largest) does not spend the bomb's time limit.
      t.equal((await request(`${url}${name}`)).status, 200, 'the sandbox built again renders');
      const memory = await request(`${url}${name}?attack=memory`);
      t.same(
        { status: memory.status, body: memory.body },
        {
          status: 500,
          body: { code: 'MEMORY_LIMIT_EXCEEDED', error: 'The component passed its sandbox memory limit; its sandbox was discarded.', name, requestVersion: '' },
        },
        'a memory bomb in the render ends at the memory limit',
      );

      const calm = await request(`${url}${name}`);
      t.equal(calm.status, 200, 'the rebuilt sandbox renders again');
      t.match(calm.body.html, CALM[name]!, 'with its text');
    });
  }
});
