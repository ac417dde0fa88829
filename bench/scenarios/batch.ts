import { OC_GREETINGS } from '../oc/oc-authored-copies';
import { baselineScenario, batchProblem, type BenchRequest } from '../scenario';
import { FIVE_COMPONENTS_BATCH, MIXED_VERSIONS, MIXED_VERSIONS_BATCH } from './against-oc';

const COMPONENTS = [
  { name: 'hello-world', parameters: { name: 'Ada' } },
  { name: 'hello-world', parameters: { name: 'Grace' } },
  { name: 'weather-badge', version: '2.x', parameters: { city: 'Lisbon' } },
  { name: 'legacy-clock' },
  { name: 'static-banner' },
];

export const BATCH_REQUEST: BenchRequest = { method: 'POST', path: '', body: JSON.stringify({ components: COMPONENTS }) };

/** `POST /` with five components (the demo set, rendered) vs a plain fastify POST. */
export const batchScenario = baselineScenario({
  name: 'batch-5',
  request: BATCH_REQUEST,
  note:
    'batch-5: `POST /` with 5 components: hello-world twice, weather-badge, legacy-clock (legacy entry), static-banner (no server logic); the baseline parses the same JSON body. ' +
    "batch-5, 4 versions and batch-5, 5 components: against-oc's batches of the OC-authored greeting (at 4 version expressions; 5 copies under 5 names), against plain fastify.",
  // A third less than the 64 + 51 µs measured before nested renders ran beside their parents (2 CPUs).
  cpuTarget: 77,
  problem: (text) => batchProblem(COMPONENTS.length, text),
  alongside: [
    { name: 'batch-5, 4 versions', request: MIXED_VERSIONS_BATCH, problem: (text) => batchProblem(MIXED_VERSIONS.length, text) },
    { name: 'batch-5, 5 components', request: FIVE_COMPONENTS_BATCH, problem: (text) => batchProblem(OC_GREETINGS.length, text) },
  ],
});
