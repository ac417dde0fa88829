import t from 'tap';
import { fixture, registryOfTheFile, request, startRegistry } from '../helpers/start-registry';
import { postJson } from './post-json';

const notValid = (error: string) => ({ code: 'POST_BODY_NOT_VALID', error, name: '', requestVersion: '' });

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile([fixture('rendering-child')]);

t.test('a batch of no components answers an empty array', async (t) => {
  const { url } = await sharedRegistry();
  const { status, text } = await postJson(url, { components: [] });
  t.equal(status, 200);
  t.equal(text, '[]');
});

t.test('a __proto__ or constructor.prototype key of a body is dropped, never inherited from', async (t) => {
  const { url } = await sharedRegistry();
  const body = '{"__proto__":{"components":[{"name":"nope"}]},"constructor":{"prototype":{"polluted":true}},"components":[{"name":"rendering-child","parameters":{"__proto__":{"who":"Eve"}}}]}';
  const answer = await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  t.equal(answer.status, 200);
  t.same(answer.body.map((item: { status: number }) => item.status), [200], 'the one listed component, not the one under __proto__');
  t.equal(({} as Record<string, unknown>).polluted, undefined);
});

t.test('malformed and ill-shaped bodies are POST_BODY_NOT_VALID, answered as JSON', async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-child')], (config) => {
    config.limits.maxBatchSize = 2;
  });
  const cases: Array<[string, unknown, string]> = [
    ['broken JSON', '{"components": [', "The request body is not valid: Body is not valid JSON but content-type is set to 'application/json'."],
    ['no components', { parameters: {} }, "The request body is not valid: body must have required property 'components'."],
    ['components not an array', { components: { name: 'rendering-child' } }, 'The request body is not valid: body/components must be array.'],
    ['a component without name', { components: [{ version: '1.0.0' }] }, "The request body is not valid: body/components/0 must have required property 'name'."],
    ['a name that is not a string', { components: [{ name: 5 }] }, 'The request body is not valid: body/components/0/name must be string.'],
    ['parameters not an object', { components: [{ name: 'rendering-child', parameters: 'who=Ada' }] }, 'The request body is not valid: body/components/0/parameters must be object.'],
    ['omitHref not a boolean', { omitHref: 'yes', components: [] }, 'The request body is not valid: body/omitHref must be boolean.'],
    ['over maxBatchSize', { components: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }, 'The batch asks for 3 components; this registry accepts at most 2.'],
  ];
  for (const [label, body, error] of cases) {
    const answer = await postJson(url, body);
    t.equal(answer.status, 400, label);
    t.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8', label);
    t.same(answer.body, notValid(error), label);
  }
  const text = await request(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'components' });
  t.equal(text.status, 400);
  t.same(text.body, notValid('The batch body must be a JSON object, sent with Content-Type: application/json.'));
});

t.test('a batch at maxBatchSize is accepted', async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-child')], (config) => {
    config.limits.maxBatchSize = 2;
  });
  const { status, body } = await postJson(url, { components: [{ name: 'rendering-child' }, { name: 'rendering-child' }] });
  t.equal(status, 200);
  t.same(
    body.map((item: { status: number }) => item.status),
    [200, 200],
  );
});
