import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { fixture, REPO_ROOT, startRegistry } from '../helpers/start-registry';
import { launchChromium, openPage } from './chromium';
import { startPageServer } from './page-server';

const script = (file: string): string => `<script>${readFileSync(path.join(REPO_ROOT, 'node_modules', file), 'utf8')}</script>`;

/**
 * A page written for OC, with OC's own browser client (oc-client-browser 1.5.4, the one OC's node
 * client ships), renders components served by Tessera. That client loads jQuery and the Handlebars
 * runtime from a CDN unless the page has them: the page carries both, as a page on a closed network
 * does.
 */
t.test("OC's own browser client renders Tessera's es6 and handlebars components, and fires oc:rendered", async (t) => {
  const { url: registry } = await startRegistry(t, [fixture('browser-greeting'), fixture('templates-handlebars-greeting')]);
  const site = await startPageServer(t, registry);
  site.pages['/'] =
    `<!doctype html><html><body>` +
    `<oc-component href="${registry}browser-greeting?name=Ada"></oc-component>` +
    `<oc-component href="${registry}templates-handlebars-greeting?name=Grace"></oc-component>` +
    script('jquery/dist/jquery.min.js') +
    script('handlebars/dist/handlebars.runtime.min.js') +
    script('oc-client-browser/dist/oc-client.min.js') +
    `<script>window.rendered=[];oc.events.on('oc:rendered',function(e,d){rendered.push(d.name+'@'+d.version)});</script>` +
    `</body></html>`;
  const browser = await launchChromium(t);
  const { page, pageErrors } = await openPage(browser);
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await page.goto(site.origin);
  await page.waitForFunction('window.rendered.length === 2');

  t.same((await page.evaluate('window.rendered.slice().sort()')) as string[], ['browser-greeting@1.0.0', 'templates-handlebars-greeting@1.0.0']);
  const components = (await page.evaluate(
    `Array.from(document.querySelectorAll('oc-component')).map(function (e) { return [e.getAttribute('data-name'), e.getAttribute('data-rendered'), e.innerText.trim().replace(/\\s+/g, ' ')] })`,
  )) as string[][];
  t.same(components, [
    ['browser-greeting', 'true', 'Hello, Ada!'],
    ['templates-handlebars-greeting', 'true', 'Hello, Grace! apple pear <b>escaped</b>'],
  ]);
  t.same(
    requested.filter((address) => !address.startsWith('http://127.0.0.1:')),
    [],
    'nothing was asked of another host than the page and the registry',
  );
  t.same(pageErrors, []);
});
