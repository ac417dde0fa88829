import t from 'tap';
import { fixture, registryOfTheFile, request, type StartedRegistry, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { BYSTANDER, hostileBesideBystander } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';

const NAME = 'hostile-forged-codes';
const MISSING_X = {
  code: 'DEPENDENCY_MISSING_FROM_REGISTRY',
  error: 'Module "x" is not bundled with the component and the registry does not provide it.',
  name: NAME,
  requestVersion: '',
  details: { missingDependencies: ['x'] },
};

const rendersOf = async (started: StartedRegistry, outcome: string): Promise<number> =>
  valueOf(parseMetrics((await request(`${started.url}metrics`)).text), 'tessera_renders_total', { component: NAME, version: '1.0.0', tenant: 'default', outcome });

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile([fixture(NAME), BYSTANDER], TWO_HOSTS);

t.test("a registry error the component catches keeps its own code and details, whatever the component writes on it", async (t) => {
  const started = await startRegistry(t, [fixture(NAME), BYSTANDER], (config) => {
    TWO_HOSTS(config);
    config.limits.maxResultBytes = 1024 * 1024;
    config.limits.nestingDepth = 1;
  });
  // Codes of another meaning, and names every object answers to: none is what the error says.
  for (const code of ['SANDBOX_QUARANTINED', 'MEMORY_LIMIT_EXCEEDED', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    await hostileBesideBystander(t, started, `${NAME}?attack=require&code=${code}`, { status: 501, body: MISSING_X });
  }
  await hostileBesideBystander(t, started, `${NAME}?attack=nested`, {
    status: 508,
    body: { code: 'NESTING_TOO_DEEP', error: `Nested rendering of "${NAME}" is deeper than the limit of 1 levels.`, name: NAME, requestVersion: '' },
  });
  t.equal(await rendersOf(started, 'SANDBOX_QUARANTINED'), 0, 'no quarantine counted');
  t.equal(await rendersOf(started, 'DEPENDENCY_MISSING_FROM_REGISTRY'), 6, 'each forged answer counted under its real code');
});

t.test("a failure's message and details are bounded: a module name of 5 MB crosses as 256 characters", async (t) => {
  const started = await sharedRegistry();
  const name = `${'y'.repeat(256)}…`;
  await hostileBesideBystander(t, started, `${NAME}?attack=long-name`, {
    status: 501,
    body: {
      code: 'DEPENDENCY_MISSING_FROM_REGISTRY',
      error: `Module "${name}" is not bundled with the component and the registry does not provide it.`,
      name: NAME,
      requestVersion: '',
      details: { missingDependencies: [name] },
    },
  });
});

t.test('a failure larger than the result limit is refused like a result', async (t) => {
  const started = await startRegistry(t, [fixture(NAME), BYSTANDER], (config) => {
    TWO_HOSTS(config);
    config.limits.maxResultBytes = 300;
  });
  await hostileBesideBystander(t, started, `${NAME}?attack=long-name`, {
    status: 500,
    body: {
      code: 'MEMORY_LIMIT_EXCEEDED',
      error: "The component's result is larger than the 300 characters allowed to leave the sandbox.",
      name: NAME,
      requestVersion: '',
    },
  });
  // Under the limit, the same registry answers the failure itself.
  await hostileBesideBystander(t, started, `${NAME}?attack=require`, { status: 501, body: MISSING_X });
});

t.test('a thrown value that throws on every read still answers at once: GENERIC_ERROR', async (t) => {
  const started = await sharedRegistry();
  await hostileBesideBystander(t, started, `${NAME}?attack=unreadable`, {
    status: 500,
    body: { code: 'GENERIC_ERROR', error: `Component "${NAME}" failed: The component threw a value that cannot be read.`, name: NAME, requestVersion: '' },
  });
});
