import t from 'tap';
import { startRegistry } from '../helpers/start-registry';
import { launchChromium, openPage } from './chromium';
import { startPageServer } from './page-server';

/**
 * Pages written for OC's browser client keep working: the checks of OC's own browser test page
 * (`oc-client-browser` 2.1.10), on a page set up as OC's is, against Tessera's client. Each check is
 * page code, run as the page runs it; `fetch` and `ljs.load` are replaced where OC's checks do.
 */
t.test("OC's window.oc API behaves as OC's client does", async (t) => {
  const { url: registry } = await startRegistry(t, []);
  const site = await startPageServer(t, registry);
  site.pages['/'] =
    `<!doctype html><html><head><script>var oc=oc||{};oc.conf=oc.conf||{};oc.conf.retryInterval=1;oc.conf.loadingMessage='Loading';` +
    `oc.cmd=[function(o){window.statusInCmd=o.status}];</script></head><body><script src="${registry}oc-client/client.js"></script></body></html>`;
  const browser = await launchChromium(t);
  const { page, pageErrors } = await openPage(browser);
  const check = async (source: string): Promise<unknown> => {
    await page.goto(site.origin);
    return page.evaluate(source);
  };

  t.same(await check('({status: oc.status, statusInCmd: window.statusInCmd, version: typeof oc.clientVersion, cmdRunsAtOnce: (() => { let ran; oc.cmd.push(() => ran = true); return ran })()})'), {
    status: 'ready',
    statusInCmd: 'ready',
    version: 'string',
    cmdRunsAtOnce: true,
  });

  t.same(
    await check(`[
      oc.build({ baseUrl: 'http://www.components.com/v2', name: 'myComponent' }),
      oc.build({ baseUrl: 'http://www.components.com/v2/', name: 'myComponent', version: '1.2.3', parameters: { hello: 'world', integer: 123, boo: true } }),
      oc.build({ baseUrl: 'https://example.com', name: 'c', version: '1.0.0', parameters: {} }),
      oc.build({ baseUrl: 'https://example.com', name: 'c', parameters: { a: 'Jack&Jane', b: 'value with spaces', c: 'fhdDk612M4mjT70xkKCZRg%3d%3d' } }),
      (() => { try { oc.build({ name: 'x' }) } catch (e) { return e.message || e } })(),
    ]`),
    [
      '<oc-component href="http://www.components.com/v2/myComponent/"></oc-component>',
      '<oc-component href="http://www.components.com/v2/myComponent/1.2.3/?hello=world&integer=123&boo=true"></oc-component>',
      '<oc-component href="https://example.com/c/1.0.0/"></oc-component>',
      '<oc-component href="https://example.com/c/?a=Jack%26Jane&b=value with spaces&c=fhdDk612M4mjT70xkKCZRg%3d%3d"></oc-component>',
      'baseUrl parameter is required',
    ],
    'oc.build',
  );

  t.same(
    await check(`new Promise((resolve) => {
      let request;
      window.fetch = (url, options) => { request = { url, method: options.method, body: options.body, accept: options.headers.Accept, type: options.headers['Content-Type'], custom: options.headers.custom };
        return Promise.resolve({ ok: true, headers: { get: () => null }, json: () => Promise.resolve([{ response: { renderMode: 'unrendered', data: 'hello' } }]) }) };
      oc.conf.globalHeaders = () => ({ custom: 'yes' });
      oc.conf.globalParameters = { test: 'value' };
      oc.getData({ baseUrl: 'http://www.components.com/v2', name: 'myComponent', version: '6.6.6', parameters: { name: 'evil' } }, (error, data) => resolve({ request, error, data }));
    })`),
    {
      request: {
        url: 'http://www.components.com/v2',
        method: 'POST',
        body: '{"components":[{"name":"myComponent","version":"6.6.6","parameters":{"test":"value","name":"evil"}}]}',
        accept: 'application/vnd.oc.unrendered+json',
        type: 'application/json',
        custom: 'yes',
      },
      error: null,
      data: 'hello',
    },
    'oc.getData posts one batch item with the global parameters and headers',
  );

  t.same(
    await check(`Promise.all([
      new Promise((resolve) => { window.fetch = () => Promise.resolve({ headers: { get: () => null }, json: () => Promise.resolve([{ response: { error: 'oups', details: 'details about oups' } }]) });
        oc.getData({ baseUrl: 'http://r', name: 'n', version: '1.0.0' }, (error) => resolve(error.message)) }),
      (() => { window.fetch = () => Promise.resolve({ headers: { get: () => null }, json: () => Promise.resolve({ error: 'API error', details: { foo: 'bar', message: 'Something went wrong', stack: 'stacktrace' } }) });
        return oc.getAction({ component: 'c', baseUrl: 'http://api', version: '1.0.0', action: 'do' }).catch((e) => [e instanceof Error, e.message, e.stack, e.foo]) })(),
      oc.getAction({ component: 'never-rendered' }).catch((e) => e.message),
    ])`),
    ['details about oups', [true, 'Something went wrong', 'stacktrace', 'bar'], 'version parameter is required'],
    'getData and getAction failures are Errors carrying the details',
  );

  t.same(
    await check(`(() => {
      const calls = [];
      const one = (event, data) => calls.push(['one', event, data]);
      oc.events.on('x:y', one);
      oc.events.on('x:y', (event, data) => calls.push(['two', event, data]));
      oc.events.fire('x:y', { a: 1 });
      oc.events.off('x:y', one);
      oc.events.fire('x:y');
      oc.events.off(['x:y']);
      oc.events.fire('x:y', 3);
      let thrown; try { oc.events.on('x:z') } catch (e) { thrown = e.message }
      return { calls, thrown };
    })()`),
    {
      calls: [
        ['one', { type: 'x:y' }, { a: 1 }],
        ['two', { type: 'x:y' }, { a: 1 }],
        ['two', { type: 'x:y' }, null],
      ],
      thrown: 'Callback is required',
    },
    'oc.events: listeners get ({type}, data); off by handler or by name',
  );

  t.same(
    await check(`new Promise((resolve) => {
      const urls = [];
      oc.conf.globalParameters = { test: 'hello world & friends?' };
      window.fetch = (url) => { urls.push(url); return Promise.reject(new Error('Failed fetch')) };
      oc.renderByHref('http://my-registry.com/v3/a-component/1.2.X/?name=John', (error) => resolve({ error, calls: urls.length, first: urls[0], last: urls[30] }));
    })`),
    {
      error: 'Failed to load http://my-registry.com/v3/a-component/1.2.X/?name=John component 31 times. Giving up',
      calls: 31,
      first: 'http://my-registry.com/v3/a-component/1.2.X/?name=John&test=hello+world+%26+friends%3F&__oc_Retry=0',
      last: 'http://my-registry.com/v3/a-component/1.2.X/?name=John&test=hello+world+%26+friends%3F&__oc_Retry=30',
    },
    'oc.renderByHref retries network failures 30 times by default, numbering each try',
  );

  t.same(
    await check(`new Promise((resolve) => {
      const component = document.createElement('oc-component');
      component.setAttribute('href', '/no-such-component/');
      document.body.appendChild(component);
      let before, failed;
      oc.events.on('oc:failed', (event, data) => failed = data.component === component);
      oc.renderByHref = (options, callback) => { before = component.innerHTML; callback('An error!', null) };
      oc.renderNestedComponent(component, () => resolve({ before, failed, html: component.innerHTML,
        rendering: component.getAttribute('data-rendering'), rendered: component.getAttribute('data-rendered'), dataFailed: component.getAttribute('data-failed') }));
    })`),
    { before: '<div class="oc-loading">Loading</div>', failed: true, html: '', rendering: 'false', rendered: 'false', dataFailed: 'true' },
    'a failed render empties and marks the element and fires oc:failed',
  );

  t.same(
    await check(`new Promise((resolve) => {
      window.fetch = (url) => Promise.resolve({ ok: true, headers: { get: () => null }, json: () => Promise.resolve({
        href: url, name: 'a-component', version: '1.2.123', requestVersion: '1.2.X', data: { who: 'John' }, renderMode: 'unrendered',
        template: { src: 'https://my-cdn.com/components/a-component/1.2.123/template.js', type: 'oc-template-es6', key: 'k1' } }) });
      ljs.load = () => { throw new Error('the view is already registered') };
      oc.components = { k1: (props) => '<b>Hi ' + props.who + ' from ' + props._componentName + ' ' + props._componentVersion + ' at ' + props._staticPath + '</b>' };
      const events = [];
      oc.events.on('oc:rendered', (event, data) => events.push([data.name, data.version, data.element.id]));
      const element = document.createElement('oc-component');
      element.id = 'mine';
      element.setAttribute('href', 'http://my-registry.com/v3/a-component/1.2.X/');
      document.body.appendChild(element);
      oc.renderUnloadedComponents();
      oc.events.on('oc:rendered', () => setTimeout(() => resolve({ events, html: element.innerHTML, rendered: oc.renderedComponents['a-component'] })));
    })`),
    {
      events: [['a-component', '1.2.123', 'mine']],
      html: '<b>Hi John from a-component 1.2.123 at https://my-cdn.com/components/a-component/1.2.123/</b>',
      rendered: { version: '1.2.123' },
    },
    'an element renders its unrendered answer with its registered view, once',
  );

  t.same(
    await check(`(() => {
      oc.registerTemplates({ type: 'existing-template', externals: ['https://example.com/original.js'] });
      const all = oc.registerTemplates([{ type: 'existing-template', externals: ['https://example.com/new.js'] }, { type: 'bare' }]);
      return { existing: all['existing-template'].externals, bare: all.bare.externals, es6: all['oc-template-es6'].externals };
    })()`),
    { existing: ['https://example.com/original.js'], es6: [] },
    'oc.registerTemplates keeps the first registration of a type',
  );

  t.same(
    await check(`new Promise((resolve) => {
      const url = URL.createObjectURL(new Blob(['window.TestLibrary = { version: "1.0.0" }'], { type: 'application/javascript' }));
      oc.require('TestLibrary', url, (library) => oc.require('Missing', URL.createObjectURL(new Blob([''], { type: 'application/javascript' })), (missing) => resolve([library.version, missing, ljs.loaded.has(url)])));
    })`),
    ['1.0.0', null, true],
    'oc.require loads a script once and answers its global',
  );
  t.same(pageErrors, []);
});
