import t from 'tap';
import path from 'node:path';
import { DEMO, request, startRegistry } from './helpers/start-registry';

t.test('the demo greeting renders through the sandbox', async (t) => {
  const { url } = await startRegistry(t, [path.join(DEMO, 'hello-world')]);
  const { status, body } = await request(`${url}hello-world?name=Ada`);
  t.equal(status, 200);
  t.match(body.html, /<p class="hello-world">Hello, Ada!<\/p>/);
});
