import { compareWithBaseline, probe, probeProblem, type BenchRequest, type Scenario } from '../scenario';

const REQUEST: BenchRequest = { method: 'GET', path: 'hello-world?name=Ada' };

/** Rendered GET of the demo greeting vs plain fastify. */
export const renderScenario: Scenario = {
  name: 'render',
  usesSharedRegistry: true,
  async run(env) {
    const registry = await env.sharedRegistry();
    const answer = await probe(registry.url, REQUEST);
    const problem = probeProblem(REQUEST, answer);
    const notes = ['render: `GET /hello-world?name=Ada`, rendered (the demo greeting, modern server entry).'];
    if (problem) return { rows: [{ scenario: 'render', skipped: problem }], notes };
    return { rows: [await compareWithBaseline(env.settings, 'render', registry.url, REQUEST, answer.text, 0.2)], notes };
  },
};
