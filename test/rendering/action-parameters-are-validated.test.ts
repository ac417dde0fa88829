import t from 'tap';
import { fixture, registryOfTheFile, request } from '../helpers/start-registry';
import { postJson } from './post-json';

const AUTH = { authorization: 'Bearer letmein' };

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile([fixture('rendering-actions')]);

t.test("an action's parameters are validated like a GET's", async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await postJson(`${url}~actions/double/rendering-actions`, { amount: 'lots', currency: 'GBP' }, AUTH);
  t.equal(status, 400);
  t.same(body, {
    code: 'NOT_VALID_REQUEST',
    error: 'Parameter "amount" must be a number. Parameter "currency" must be one of: EUR, USD.',
    name: 'rendering-actions',
    requestVersion: '',
    details: {
      parameters: [
        { name: 'amount', problem: 'wrong type' },
        { name: 'currency', problem: 'not allowed', allowed: ['EUR', 'USD'] },
      ],
    },
  });
});

t.test('an action body that is not a JSON object is POST_BODY_NOT_VALID', async (t) => {
  const { url } = await sharedRegistry();
  const broken = await postJson(`${url}~actions/double/rendering-actions`, '{"amount": ', AUTH);
  t.equal(broken.status, 400);
  t.same(broken.body, {
    code: 'POST_BODY_NOT_VALID',
    error: "The request body is not valid: Body is not valid JSON but content-type is set to 'application/json'.",
    name: '',
    requestVersion: '',
  });
  const array = await postJson(`${url}~actions/double/rendering-actions/1.0.0`, [21], AUTH);
  t.equal(array.status, 400);
  t.same(array.body, { code: 'POST_BODY_NOT_VALID', error: 'The action body must be a JSON object of parameters.', name: 'rendering-actions', requestVersion: '1.0.0' });
  const text = await request(`${url}~actions/double/rendering-actions`, { method: 'POST', headers: { 'content-type': 'text/plain', ...AUTH }, body: '{"amount": 21}' });
  t.equal(text.status, 400);
  t.same(text.body, {
    code: 'POST_BODY_NOT_VALID',
    error: 'The action body must be a JSON object of parameters, sent with Content-Type: application/json.',
    name: 'rendering-actions',
    requestVersion: '',
  });
});
