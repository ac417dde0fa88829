import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

const COMPONENTS = [fixture('rendering-child'), fixture('rendering-child-v2'), fixture('rendering-nested-parent')];

t.test('ctx.renderComponent renders another component of the registry', async (t) => {
  const { url } = await startRegistry(t, COMPONENTS);
  const html = async (which: string) => {
    // The parent's own request headers must not reach the child unless it passes them.
    const { status, body } = await request(`${url}rendering-nested-parent?case=${which}`, { headers: { 'x-trace': 'parent' } });
    t.equal(status, 200, which);
    return body.html;
  };
  t.equal(await html('callback'), '<section><i>v1 {"who":"Ada"} trace=given</i></section>', 'callback(error, html) with version, parameters and headers');
  t.equal(await html('callback-only'), '<section><i>v2 {} trace=none</i></section>', 'callback as the second argument; latest version');
  t.equal(await html('promise'), '<section><i>v2 {} trace=none</i></section>', 'a promise when no callback is given');
  t.equal(await html('failing-child'), '<section>Error(Component "rendering-child" failed: The child was asked to fail)</section>', 'a failing child rejects with an Error');
});

t.test('the whole parent response', async (t) => {
  const { url } = await startRegistry(t, COMPONENTS);
  const { status, body } = await request(`${url}rendering-nested-parent?case=promise`);
  t.equal(status, 200);
  t.same(body, {
    href: `${url}rendering-nested-parent?case=promise`,
    name: 'rendering-nested-parent',
    version: '1.0.0',
    requestVersion: '',
    html: '<section><i>v2 {} trace=none</i></section>',
    type: 'oc-component',
    renderMode: 'rendered',
    baseUrl: url,
  });
});
