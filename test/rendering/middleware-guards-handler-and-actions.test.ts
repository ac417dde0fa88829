import t from 'tap';
import { fixture, registryOfTheFile, request } from '../helpers/start-registry';
import { postJson } from './post-json';

const UNAUTHORIZED = { code: 'GENERIC_ERROR', error: 'Component "rendering-actions" failed: A valid token is required', name: 'rendering-actions', requestVersion: '' };

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile([fixture('rendering-actions')]);

t.test("a middleware throwing ServerError(401) on a missing authorization header answers 401", async (t) => {
  const { url } = await sharedRegistry();
  const missing = await request(`${url}rendering-actions`);
  t.equal(missing.status, 401);
  t.same(missing.body, UNAUTHORIZED);
  const wrong = await request(`${url}rendering-actions`, { headers: { authorization: 'Bearer guess' } });
  t.equal(wrong.status, 401);
  t.same(wrong.body, UNAUTHORIZED);
});

t.test('the middleware runs before actions too', async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await postJson(`${url}~actions/double/rendering-actions`, { amount: 1 });
  t.equal(status, 401);
  t.same(body, UNAUTHORIZED);
});

t.test("the middleware's result is ctx.state in the handler", async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await request(`${url}rendering-actions?amount=3`, { headers: { authorization: 'Bearer letmein' } });
  t.equal(status, 200);
  t.equal(body.html, '<p>ada has 3</p>');
});
