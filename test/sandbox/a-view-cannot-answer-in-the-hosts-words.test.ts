import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';

const NAME = 'hostile-template-hook-need-code';

/**
 * The view's top-level code makes the build answer `"need-code"`, the host's own message asking the
 * front for a version's code. Whatever a sandbox answers, the client reads a failure of the errors
 * table (decisions §2): a component failure with its code, status and sentence.
 */
t.test("a build that answers in the host's own words is the component's failure, answered with a coded body", async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture(NAME)), ofTenant('acme', BYSTANDER)]);
  await bystanderRenders(t, started, 'Before', 'another tenant before');
  for (const attempt of [1, 2]) {
    const answer = await request(`${started.url}${NAME}`);
    t.equal(answer.status, 500, `attempt ${attempt}: status`);
    t.match(answer.body, { code: 'GENERIC_ERROR', name: NAME, requestVersion: '' }, `attempt ${attempt}: a component failure (it was ${answer.text.slice(0, 300)})`);
    t.ok(typeof answer.body.error === 'string' && answer.body.error.startsWith(`Component "${NAME}" failed: `), `attempt ${attempt}: the sentence names the component`);
  }
  await bystanderRenders(t, started, 'After', 'another tenant after');
});
