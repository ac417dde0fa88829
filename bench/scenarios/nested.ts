import { baselineScenario } from '../scenario';

/** A parent whose handler renders two components with `ctx.renderComponent` vs plain fastify. */
export const nestedScenario = baselineScenario({
  name: 'nested',
  request: { method: 'GET', path: 'bench-nested-parent' },
  note: 'nested: `GET /bench-nested-parent`, whose handler awaits two `ctx.renderComponent` calls (hello-world, bench-nested-badge): three executions per request.',
  // A third less than the 45 + 51 µs measured before nested renders ran beside their parents (2 CPUs).
  cpuTarget: 64,
  problem: (text) =>
    text.includes('class=\\"hello-world\\"') && text.includes('class=\\"bench-nested-badge\\"') ? undefined : 'the parent did not contain both nested components',
});
