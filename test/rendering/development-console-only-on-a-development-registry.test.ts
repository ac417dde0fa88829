import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

const RELAY =
  '<script>console.log("[rendering-console@1.0.0 server]","rendering for Ada {\\"count\\":1}");' +
  'console.warn("[rendering-console@1.0.0 server]","\\u003c/script\\u003e is harmless here");</script>';

t.test("a development registry relays the server logic's console to the browser when the component asks for it", async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-console'), fixture('core-modes')], (config) => {
    config.development = true;
  });
  const rendered = await request(`${url}rendering-console?name=Ada`);
  t.equal(rendered.status, 200);
  t.equal(rendered.body.html, `<p>Hello, Ada!</p>${RELAY}`, 'the lines follow the markup, as a script');
  const again = await request(`${url}rendering-console?name=Ada`);
  t.equal(again.body.html, `<p>Hello, Ada!</p>${RELAY}`, 'each answer carries its own lines, not those of earlier ones');
  t.notMatch((await request(`${url}core-modes?name=Ada`)).body.html, '<script>console.', 'a component that did not ask relays nothing');
});

t.test('a production registry never relays it', async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-console')]);
  const rendered = await request(`${url}rendering-console?name=Ada`);
  t.equal(rendered.status, 200);
  t.equal(rendered.body.html, '<p>Hello, Ada!</p>');
});
