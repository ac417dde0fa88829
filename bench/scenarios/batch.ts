import { baselineScenario, batchProblem, type BenchRequest } from '../scenario';

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
  note: 'batch-5: `POST /` with 5 components: hello-world twice, weather-badge, legacy-clock (legacy entry), static-banner (no server logic); the baseline parses the same JSON body.',
  // A third less than the 64 + 51 µs measured before nested renders ran beside their parents (2 CPUs).
  cpuTarget: 77,
  problem: (text) => batchProblem(COMPONENTS.length, text),
});
