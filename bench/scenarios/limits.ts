import { defaultConfig, type RegistryConfig } from '../../src/config/config';
import { compareInRounds, probe, probeProblem, startRegistryServer, type BenchRequest, type Scenario } from '../scenario';

type Limits = RegistryConfig['limits'];

const REQUEST: BenchRequest = { method: 'GET', path: 'hello-world?name=Ada' };

/** The pool's shape, kept as it is in both runs: these size the pipeline rather than limit it. */
const POOL_SHAPE = new Set<string>(['sandboxHosts', 'frontThreads', 'concurrentPerHost', 'maxWarmIsolatesPerHost']);
/** Lifted values where multiplying the default would not make sense. */
const LIFTED: Partial<Limits> = { executionTimeoutMs: 3_600_000, memoryMb: 1024 };
const LIFT_FACTOR = 1000;

/** Every limit of the configuration lifted far away (including those added later), the pool shape kept. */
function liftedLimits(): Partial<Limits> {
  const lifted: Record<string, number> = {};
  for (const [key, value] of Object.entries(defaultConfig().limits)) {
    if (POOL_SHAPE.has(key) || typeof value !== 'number') continue;
    lifted[key] = (LIFTED as Record<string, number>)[key] ?? value * LIFT_FACTOR;
  }
  return lifted;
}

/** A registry over `storagePath` with `limits`, checked to answer the request. */
async function startRegistryWith(storagePath: string, limits: Partial<Limits>) {
  const registry = await startRegistryServer({ storagePath, limits });
  const problem = probeProblem(REQUEST, await probe(registry.url, REQUEST));
  if (problem) {
    await registry.stop();
    throw new Error(problem);
  }
  return registry;
}

/** The cost of isolation limits: the same rendered GET with the default limits, then with every limit lifted. */
export const limitsScenario: Scenario = {
  name: 'limits',
  usesSharedRegistry: false,
  async run(env) {
    const lifted = liftedLimits();
    const defaults = defaultConfig().limits as unknown as Record<string, number>;
    const notes = [
      `limits: \`GET /hello-world?name=Ada\` on a registry with the default limits, and on a second one with every limit lifted, measured in alternating rounds (${Object.entries(lifted)
        .map(([key, value]) => `${key} ${defaults[key]} → ${value}`)
        .join(', ')}); pool shape unchanged.`,
    ];
    const limitsOn = await startRegistryWith(env.storagePath, {});
    try {
      const limitsOff = await startRegistryWith(env.storagePath, lifted);
      try {
        const { subject, reference, roundRatios } = await compareInRounds(env.settings, limitsOn, limitsOff, REQUEST);
        return {
          rows: [
            { scenario: 'limits on (defaults)', result: subject, reference: { label: 'limits off (best case)', result: reference, roundRatios } },
            { scenario: 'limits off (best case)', result: reference },
          ],
          notes,
        };
      } finally {
        await limitsOff.stop();
      }
    } finally {
      await limitsOn.stop();
    }
  },
};
