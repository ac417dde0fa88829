import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

const COMPONENTS = [fixture('rendering-child'), fixture('rendering-child-v2'), fixture('rendering-nested-parent')];
const WHOLE = '<section><i>v2 {} trace=shared</i> | <i>v1 {} trace=shared</i></section>';
const NO_SLOT = 'Error(The registry is at capacity for tenant "default": a nested render found no free execution slot within its share; retry later.)';

const LIMIT_MS = 10_000;

t.test('more concurrent nested parents than execution slots: children never wait, so every parent answers', async (t) => {
  // Two hosts running one outside execution each, and one slot of headroom for nested renders:
  // every slot is taken by a parent waiting on its children.
  const { url } = await startRegistry(t, COMPONENTS, (config) => {
    config.limits.sandboxHosts = 2;
    config.limits.concurrentPerHost = 1;
    // A child waiting on a slot its parent holds would hold every answer past it; a limit far above
    // what the six renders take on a busy machine (queued two at a time, cold) tells the two apart.
    config.limits.executionTimeoutMs = LIMIT_MS;
  });
  const sent = performance.now();
  const answers = await Promise.all(Array.from({ length: 6 }, () => request(`${url}rendering-nested-parent?case=many-promise`)));
  const took = performance.now() - sent;
  t.ok(took < LIMIT_MS, `all answered before the time limit: nothing waited on a slot held by its own parent (${Math.round(took)} ms)`);
  const part = `(<i>v[12] \\{\\} trace=shared</i>|${NO_SLOT.replace(/[().]/g, '\\$&')})`;
  for (const [index, answer] of answers.entries()) {
    t.equal(answer.status, 200, `parent ${index}: status`);
    t.match(answer.body.html, new RegExp(`<section>${part} \\| ${part}</section>`), `parent ${index}: each child rendered or refused at once with OVERLOADED`);
  }
  t.ok(
    answers.some((answer) => answer.body.html.includes(NO_SLOT)),
    'with every slot held, some children were refused rather than queued',
  );
});

t.test('with the default slots, the same parents all render whole', async (t) => {
  const { url } = await startRegistry(t, COMPONENTS);
  const answers = await Promise.all(Array.from({ length: 6 }, () => request(`${url}rendering-nested-parent?case=many-promise`)));
  t.same(
    answers.map((answer) => [answer.status, answer.body.html?.includes(WHOLE)]),
    Array.from({ length: 6 }, () => [200, true]),
  );
});
