import { baselineScenario, type BenchRequest } from '../scenario';

const COMPONENTS = [
  { name: 'hello-world', parameters: { name: 'Ada' } },
  { name: 'hello-world', parameters: { name: 'Grace' } },
  { name: 'weather-badge', version: '2.x', parameters: { city: 'Lisbon' } },
  { name: 'legacy-clock' },
  { name: 'static-banner' },
];

const REQUEST: BenchRequest = { method: 'POST', path: '', body: JSON.stringify({ components: COMPONENTS }) };

/** Why a batch answer is not five successful items; undefined when it is. */
function batchProblem(text: string): string | undefined {
  let items: unknown;
  try {
    items = JSON.parse(text);
  } catch {
    return 'POST / did not answer JSON';
  }
  if (!Array.isArray(items) || items.length !== COMPONENTS.length) return `POST / did not answer an array of ${COMPONENTS.length} items`;
  const failed = items.filter((item: { status?: unknown }) => item.status !== 200).length;
  return failed > 0 ? `${failed} of the ${COMPONENTS.length} batch items failed` : undefined;
}

/** `POST /` with five components (the demo set, rendered) vs a plain fastify POST. */
export const batchScenario = baselineScenario({
  name: 'batch-5',
  request: REQUEST,
  note: 'batch-5: `POST /` with 5 components: hello-world twice, weather-badge, legacy-clock (legacy entry), static-banner (no server logic); the baseline parses the same JSON body.',
  target: 0.4,
  problem: batchProblem,
});
