import t from 'tap';
import { fixture, registryOfTheFile, request } from '../helpers/start-registry';

const COMPONENTS = [fixture('rendering-child'), fixture('rendering-child-v2'), fixture('rendering-nested-parent')];

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile(COMPONENTS);

t.test('ctx.renderComponents: global parameters under each own, a failed child is an Error while the others stay strings', async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await request(`${url}rendering-nested-parent?case=many`, { headers: { 'x-trace': 'parent' } });
  t.equal(status, 200);
  t.equal(
    body.html,
    '<section>' +
      [
        '<i>v2 {"who":"Ada","lang":"pt"} trace=none</i>',
        'Error(Component "rendering-child" failed: The child was asked to fail)',
        '<i>v1 {"who":"everyone","lang":"pt"} trace=none</i>',
        'Error(Component "no-such-component" is not published on this registry.)',
      ].join(' | ') +
      '</section>',
  );
});

t.test('ctx.renderComponents returns a promise without callback and forwards options.headers', async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await request(`${url}rendering-nested-parent?case=many-promise`);
  t.equal(status, 200);
  t.equal(body.html, '<section><i>v2 {} trace=shared</i> | <i>v1 {} trace=shared</i></section>');
});
