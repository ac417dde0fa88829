import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

type Callback<T> = (error: unknown, result: T, details?: unknown) => void;
interface OcClient {
  init(options: object, callback: Callback<Record<string, string>>): void;
  renderComponent(name: string, options: object, callback: Callback<string>): void;
  renderComponents(components: object[], options: object, callback: Callback<string[]>): void;
}
// OC's own node client, as a site's server uses it (it ships without type declarations).
const Client = require('oc-client') as new (config: object) => OcClient;

const call = <T>(fn: (callback: Callback<T>) => void) =>
  new Promise<{ error: unknown; result: T }>((resolve) => fn((error, result) => resolve({ error, result })));

t.test("OC's node client warms up, renders on the server and reports errors", async (t) => {
  const { url } = await startRegistry(t, [fixture('core-modes'), fixture('core-failing')]);
  // Without a client-side registry the client does not fall back to rendering in the browser: failures stay visible.
  const client = new Client({ registries: { serverRendering: url }, components: { 'core-modes': '1.0.0' } });

  const info = await request(`${url}oc-client/~info`);
  t.equal(info.status, 200, 'GET /oc-client/~info answers, as the warm-up needs');
  t.same({ name: info.body.name, parameters: info.body.oc.parameters, requestVersion: info.body.requestVersion }, { name: 'oc-client', parameters: {}, requestVersion: '' });

  const warm = await call<Record<string, string>>((done) => client.init({ timeout: 5 }, done));
  t.equal(warm.error, null);
  t.same(Object.keys(warm.result).sort(), ['core-modes', 'oc-client']);
  t.equal(warm.result['oc-client'], `<script src="${url}oc-client/client.js"></script>`);
  t.equal(warm.result['core-modes'], '<p class="greeting">Hello, World!</p>');

  const one = await call<string>((done) => client.renderComponent('core-modes', { parameters: { name: 'Ada' }, container: false, renderInfo: false }, done));
  t.equal(one.error, null);
  t.equal(one.result, '<p class="greeting">Hello, Ada!</p>');

  const many = await call<string[]>((done) =>
    client.renderComponents([{ name: 'core-modes', parameters: { name: 'Ed' } }, { name: 'core-failing' }, { name: 'no-such-component' }], { container: false, renderInfo: false }, done),
  );
  t.same(many.result, ['<p class="greeting">Hello, Ed!</p>', '', '']);
  const errors = (many.error as Array<Error | null>).map((error) => error && error.message);
  t.same(errors, [
    null,
    'Server-side rendering failed: Component "core-failing" failed: The handler always fails (500)',
    'Server-side rendering failed: Component "no-such-component" is not published on this registry. (404)',
  ]);
});
