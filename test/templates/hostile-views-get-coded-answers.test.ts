import t from 'tap';
import type { RegistryConfig } from '../../src/config/config';
import { request } from '../helpers/start-registry';
import { publishFixture, startTemplatesRegistry } from './publish-fixture';

/** Each type's loop spins to it. */
const TIMEOUT_MS = 1000;
/**
 * The memory bombs' registry's limit: far above what a bomb takes to reach the memory limit, even on
 * a machine whose CPUs are busy with other work (the handlebars view escapes megabytes before V8's
 * last collections: a limit of 2.5 s was passed so).
 */
const BOMB_TIMEOUT_MS = 30_000;
/** Each type's hostile fixture, and the markup it renders when it does not attack. */
const CALM: Record<string, string> = {
  'hostile-esm-view': '<div data-oc-root><p>calm</p></div>',
  'hostile-react-view': '<div data-oc-root><p>calm</p></div>',
  'hostile-handlebars-view': '\n\n<p>calm</p>\n',
};

t.test('a view that loops or hoards memory while rendering gets the coded answers of server logic, whatever its template type', async (t) => {
  const limited = (timeoutMs: number) => (config: RegistryConfig) => {
    config.limits.sandboxHosts = 2;
    config.limits.executionTimeoutMs = timeoutMs;
    config.limits.memoryMb = 16;
  };
  const [{ url }, bombs] = await Promise.all([startTemplatesRegistry(t, limited(TIMEOUT_MS)), startTemplatesRegistry(t, limited(BOMB_TIMEOUT_MS))]);
  for (const name of Object.keys(CALM)) {
    t.test(name, async (t) => {
      await Promise.all([publishFixture(url, name), publishFixture(bombs.url, name)]);
      const started = performance.now();
      const loop = await request(`${url}${name}?attack=loop`);
      const elapsed = performance.now() - started;
      t.same(
        { status: loop.status, body: loop.body },
        { status: 504, body: { code: 'EXECUTION_TIMEOUT', error: 'The component passed its execution time limit.', name, requestVersion: '' } },
        'a loop in the render ends at the time limit',
      );
      t.ok(elapsed >= TIMEOUT_MS && elapsed < 5 * TIMEOUT_MS, `stopped at the limit (${Math.round(elapsed)} ms)`);

      // The loop cost the version its sandbox. Its build counts in the next execution's deadline and is
      // kept when that one times out: a slow build on a busy machine (react-dom's) is sent again.
      let rebuilt = await request(`${url}${name}`);
      for (let attempt = 1; attempt < 10 && rebuilt.body.code === 'EXECUTION_TIMEOUT'; attempt++) rebuilt = await request(`${url}${name}`);
      t.equal(rebuilt.status, 200, 'the sandbox the loop cost is built again and renders');
      const memory = await request(`${bombs.url}${name}?attack=memory`);
      t.same(
        { status: memory.status, body: memory.body },
        {
          status: 500,
          body: { code: 'MEMORY_LIMIT_EXCEEDED', error: 'The component passed its sandbox memory limit; its sandbox was discarded.', name, requestVersion: '' },
        },
        'a memory bomb in the render ends at the memory limit',
      );

      const calm = await request(`${bombs.url}${name}`);
      t.equal(calm.status, 200, 'the rebuilt sandbox renders again');
      t.match(calm.body.html, CALM[name]!, 'with its text');
    });
  }
});
