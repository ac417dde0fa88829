import { baselineScenario } from '../scenario';

/** Rendered GET of the demo esm counter (Preact rendered to HTML in the sandbox) vs plain fastify. */
export const renderEsmScenario = baselineScenario({
  name: 'render-esm',
  request: { method: 'GET', path: 'esm-counter?label=Visitors' },
  note: 'render-esm: `GET /esm-counter?label=Visitors`, rendered: the demo counter, a Preact component rendered to HTML in the sandbox (oc-template-esm), with its hydration script.',
  problem: (text) => (text.includes('<output>0</output>') ? undefined : 'the esm counter was not rendered on the server'),
});

/** Rendered GET of the demo react toggle (react-dom/server in the sandbox) vs plain fastify. */
export const renderReactScenario = baselineScenario({
  name: 'render-react',
  request: { method: 'GET', path: 'react-toggle?label=Dark%20mode' },
  note: 'render-react: `GET /react-toggle?label=Dark%20mode`, rendered: the demo switch, a React component rendered with react-dom/server in the sandbox (oc-template-react), with its hydration script.',
  problem: (text) => (text.includes('role=\\"switch\\"') ? undefined : 'the react toggle was not rendered on the server'),
});
