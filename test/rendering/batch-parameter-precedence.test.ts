import t from 'tap';
import { fixture, startRegistry } from '../helpers/start-registry';
import { postJson } from './post-json';

t.test("a component's own batch parameters override the global ones, and its href carries them", async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-child')]);
  const { status, body } = await postJson(url, {
    parameters: { who: 'everyone', lang: 'pt' },
    components: [{ name: 'rendering-child', parameters: { who: 'Ada', page: 2 } }, { name: 'rendering-child' }],
  });
  t.equal(status, 200);
  t.same(
    body.map((item: { response: { href: string; html: string } }) => [item.response.href, item.response.html]),
    [
      [`${url}rendering-child?who=Ada&lang=pt&page=2&fail=false`, '<i>v1 {"who":"Ada","lang":"pt","page":2} trace=none</i>'],
      [`${url}rendering-child?who=everyone&lang=pt&fail=false`, '<i>v1 {"who":"everyone","lang":"pt"} trace=none</i>'],
    ],
  );
});
