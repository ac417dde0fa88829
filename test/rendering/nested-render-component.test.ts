import t from 'tap';
import { fixture, registryOfTheFile, request } from '../helpers/start-registry';

const COMPONENTS = [fixture('rendering-child'), fixture('rendering-child-v2'), fixture('rendering-nested-parent')];

const CASES: Array<[string, string, string]> = [
  ['callback', '<section><i>v1 {"who":"Ada"} trace=given</i></section>', 'callback(error, html) with version, parameters and headers'],
  ['callback-only', '<section><i>v2 {} trace=none</i></section>', 'callback as the second argument; latest version'],
  ['promise', '<section><i>v2 {} trace=none</i></section>', 'a promise when no callback is given'],
  ['header-case', '<section><i>v1 {} trace=upper</i></section>', 'header names passed in any case reach the child in lowercase'],
  [
    'bad-options',
    '<section>Error(renderComponent: the value of header "x-trace" must be a string.) | ' +
      'Error(renderComponent: options.headers must be an object of header names and string values.) | ' +
      'Error(renderComponent: "bad name" is not a header name.) | ' +
      'Error(renderComponent: options.version must be a version expression (a string).)</section>',
    'headers that are not strings, or a version that is not a string, are refused in the parent',
  ],
  ['failing-child', '<section>Error(Component "rendering-child" failed: The child was asked to fail)</section>', 'a failing child rejects with an Error'],
];

interface Assert {
  equal(found: unknown, wanted: unknown, message: string): unknown;
}

async function checkCases(t: Assert, url: string, round = ''): Promise<void> {
  for (const [which, html, message] of CASES) {
    // The parent's own request headers must not reach the child unless it passes them.
    const { status, body } = await request(`${url}rendering-nested-parent?case=${which}`, { headers: { 'x-trace': 'parent' } });
    t.equal(status, 200, `${which}${round}`);
    t.equal(body.html, html, `${message}${round}`);
  }
}

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile(COMPONENTS);

t.test('ctx.renderComponent renders another component of the registry', async (t) => {
  const { url } = await sharedRegistry();
  await checkCases(t, url);
});

t.test('the whole parent response', async (t) => {
  const { url } = await sharedRegistry();
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
