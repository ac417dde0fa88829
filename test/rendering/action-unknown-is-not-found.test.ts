import t from 'tap';
import { fixture, registryOfTheFile } from '../helpers/start-registry';
import { postJson } from './post-json';

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile([fixture('rendering-actions')]);

t.test('an action the component does not register is NOT_FOUND naming it, not a run of the handler', async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await postJson(`${url}~actions/triple/rendering-actions`, { amount: 2 }, { authorization: 'Bearer letmein' });
  t.equal(status, 404);
  t.same(body, { code: 'NOT_FOUND', error: 'The component has no action "triple".', name: 'rendering-actions', requestVersion: '' });
});

t.test('a name the actions object inherits (toString, constructor…) is no action: NOT_FOUND', async (t) => {
  const { url } = await sharedRegistry();
  for (const action of ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__defineGetter__']) {
    const { status, body } = await postJson(`${url}~actions/${action}/rendering-actions`, { amount: 2 }, { authorization: 'Bearer letmein' });
    t.equal(status, 404, action);
    t.same(body, { code: 'NOT_FOUND', error: `The component has no action "${action}".`, name: 'rendering-actions', requestVersion: '' }, action);
  }
});

t.test('an action of an unknown component is NOT_FOUND', async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await postJson(`${url}~actions/double/no-such-component/1.0.0`, {});
  t.equal(status, 404);
  t.same(body, { code: 'NOT_FOUND', error: 'Component "no-such-component" is not published on this registry.', name: 'no-such-component', requestVersion: '1.0.0' });
});
