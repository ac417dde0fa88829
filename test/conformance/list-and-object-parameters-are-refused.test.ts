import t from 'tap';
import { fixture, registryOfTheFile, request } from '../helpers/start-registry';
import { postJson } from '../rendering/post-json';

const invalid = (error: string, parameters: object[]) => ({ code: 'NOT_VALID_REQUEST', error, name: 'core-params', requestVersion: '', details: { parameters } });

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile([fixture('core-params')]);

t.test('batch parameters that are lists, objects or null are NOT_VALID_REQUEST, declared or not', async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await postJson(url, {
    parameters: { tags: ['a', 'b'] },
    components: [
      { name: 'core-params', parameters: { city: ['Lisbon', 'Porto'] } },
      { name: 'core-params', parameters: { city: 'Lisbon', filter: { x: 1 } } },
      { name: 'core-params', parameters: { city: 'Lisbon', days: null } },
    ],
  });
  t.equal(status, 200);
  t.strictSame(body, [
    {
      status: 400,
      response: invalid('Parameter "tags" must be a single string, number or boolean, given once. Parameter "city" must be a single string, given once.', [
        { name: 'tags', problem: 'wrong type' },
        { name: 'city', problem: 'wrong type' },
      ]),
    },
    {
      status: 400,
      response: invalid('Parameter "tags" must be a single string, number or boolean, given once. Parameter "filter" must be a single string, number or boolean, given once.', [
        { name: 'tags', problem: 'wrong type' },
        { name: 'filter', problem: 'wrong type' },
      ]),
    },
    {
      status: 400,
      response: invalid('Parameter "tags" must be a single string, number or boolean, given once. Parameter "days" must be a single number, given once.', [
        { name: 'tags', problem: 'wrong type' },
        { name: 'days', problem: 'wrong type' },
      ]),
    },
  ]);
});

t.test('a query parameter given twice is refused instead of collapsing to one value', async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await request(`${url}core-params?city=Lisbon&city=Porto`);
  t.equal(status, 400);
  t.strictSame(body, invalid('Parameter "city" must be a single string, given once.', [{ name: 'city', problem: 'wrong type' }]));
});
