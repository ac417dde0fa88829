import { compareWithBaseline, probe, probeProblem, type BenchRequest, type Scenario } from '../scenario';

const REQUEST: BenchRequest = { method: 'GET', path: 'bench-nested-parent' };

/** A parent whose handler renders two components with `ctx.renderComponent` vs plain fastify. */
export const nestedScenario: Scenario = {
  name: 'nested',
  usesSharedRegistry: true,
  async run(env) {
    const registry = await env.sharedRegistry();
    const answer = await probe(registry.url, REQUEST);
    const nestedMissing = !answer.text.includes('class=\\"hello-world\\"') || !answer.text.includes('class=\\"bench-nested-badge\\"');
    const problem = probeProblem(REQUEST, answer) ?? (nestedMissing ? 'the parent did not contain both nested components' : undefined);
    const notes = ['nested: `GET /bench-nested-parent`, whose handler awaits two `ctx.renderComponent` calls (hello-world, bench-nested-badge): three executions per request.'];
    if (problem) return { rows: [{ scenario: 'nested', skipped: problem }], notes };
    return { rows: [await compareWithBaseline(env.settings, 'nested', registry.url, REQUEST, answer.text)], notes };
  },
};
