import t from 'tap';
import { fixture, registryOfTheFile } from '../helpers/start-registry';
import { postJson } from './post-json';

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile([fixture('rendering-child')]);

t.test('omitHref leaves href out of every item', async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await postJson(url, { omitHref: true, components: [{ name: 'rendering-child', parameters: { who: 'Ada' } }] });
  t.equal(status, 200);
  t.same(body, [
    {
      status: 200,
      response: { name: 'rendering-child', version: '1.0.0', requestVersion: '', html: '<i>v1 {"who":"Ada"} trace=none</i>', type: 'oc-component', renderMode: 'rendered', baseUrl: url },
    },
  ]);
});

t.test('without omitHref each item has its href', async (t) => {
  const { url } = await sharedRegistry();
  const { body } = await postJson(url, { omitHref: false, components: [{ name: 'rendering-child' }] });
  t.equal(body[0].response.href, `${url}rendering-child?fail=false`);
});
