import { baselineScenario } from '../scenario';

/** Rendered GET of the demo greeting vs plain fastify. */
export const renderScenario = baselineScenario({
  name: 'render',
  request: { method: 'GET', path: 'hello-world?name=Ada' },
  note: 'render: `GET /hello-world?name=Ada`, rendered (the demo greeting, modern server entry).',
  target: 0.5,
  p99Target: 2,
});
