import t from 'tap';
import path from 'node:path';
import { DEMO, request, startRegistry } from '../helpers/start-registry';
import { postJson } from './post-json';

t.test("the default configuration's formatPrice plugin, used by the price-tag demo in its handler and its action", async (t) => {
  const { url } = await startRegistry(t, [path.join(DEMO, 'price-tag')]);
  const rendered = await request(`${url}price-tag?amount=12.5&currency=GBP`);
  t.equal(rendered.status, 200);
  t.match(rendered.body.html, /<span class="price-tag">£12\.50<\/span>/);

  const quote = await postJson(`${url}~actions/quote/price-tag`, { amount: 12.5, quantity: 3 });
  t.equal(quote.status, 200);
  t.same(quote.body.data, { total: 37.5, label: '€37.50' });
});
