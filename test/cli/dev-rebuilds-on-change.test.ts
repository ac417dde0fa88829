import { cp, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { fixture, request } from '../helpers/start-registry';
import { eventually, startCli, workFolder } from './run-cli';

/**
 * Replaces a file whole, in one step, as an editor that saves by renaming does: a write in place
 * truncates first, and a watcher that read the empty file between the two once built an extra
 * version (1.0.0-dev.3 where dev.2 was the last good one). The new text is written beside the
 * component's folder, where the watcher does not look.
 */
async function replaceFile(file: string, text: string, work: string): Promise<void> {
  const staged = path.join(work, `staged-${path.basename(file)}`);
  await writeFile(staged, text);
  await rename(staged, file);
}

t.test('tessera dev serves a folder and picks up an edited view without a restart', async (t) => {
  const work = await workFolder(t);
  const dir = path.join(work, 'publish-greeting');
  await cp(fixture('publish-greeting'), dir, { recursive: true });

  const dev = startCli(t, ['dev', dir, '--port', '0']);
  const [, url] = await dev.waitFor(/Tessera dev registry on (http:\/\/127\.0\.0\.1:\d+\/)\n[^]*Watching 1 folder/);
  t.match(dev.output(), 'Built publish-greeting@1.0.0 as 1.0.0-dev.1');
  t.match(dev.output(), `preview publish-greeting: ${url}~preview/publish-greeting`);

  const first = await request(`${url}publish-greeting?name=Ada`);
  t.equal(first.status, 200);
  t.equal(first.body.version, '1.0.0-dev.1');
  t.match(first.body.html, '<p class="greeting">Hello, Ada!</p>');

  const view = path.join(dir, 'src', 'view.js');
  await replaceFile(view, (await readFile(view, 'utf8')).replace('Hello', 'Welcome'), work);
  let latest = first;
  await eventually(async () => {
    latest = await request(`${url}publish-greeting?name=Ada`);
    return latest.body.html?.includes('Welcome, Ada!') ?? false;
  });
  t.equal(latest.body.version, '1.0.0-dev.2', 'each build is served as a new version');
  t.match(dev.output(), 'Built publish-greeting@1.0.0 as 1.0.0-dev.2');

  // A build that fails keeps the last good one served and says why.
  await replaceFile(view, 'export default (model) => `<p>${model.name</p>`;\n', work);
  await dev.waitFor(/the build failed; the last good build, if any, is served\.\nError PACKAGE_NOT_VALID: The template "src\/view\.js" does not compile\./, 5000);
  t.match((await request(`${url}publish-greeting?name=Ada`)).body.html, 'Welcome, Ada!');

  const preview = await request(`${url}~preview/publish-greeting?name=Bo`);
  t.equal(preview.status, 200);
  t.equal(preview.headers.get('content-type'), 'text/html; charset=utf-8');
  t.match(preview.text, '<h1>publish-greeting <small>1.0.0-dev.2</small></h1>');
  t.match(preview.text, '<label>name <input name="name" value="Bo" placeholder="string"></label>');
  t.match(preview.text, '<p class="greeting">Welcome, Bo!</p>');
  t.match(preview.text, '<script src="/oc-client/client.js"></script>', 'with the browser client, which hydrates esm and react views');

  const notBuilt = await request(`${url}~preview/no-such-component`);
  t.equal(notBuilt.status, 404, 'the preview of a component never built is a 404');
  t.match(notBuilt.text, '<h1>no-such-component <small>not built</small></h1>');
  t.match(notBuilt.text, '404 NOT_FOUND: Component &quot;no-such-component&quot; is not published on this registry.');

  // Development mode: error bodies carry the stack.
  const missing = await request(`${url}no-such-component`);
  t.equal(missing.status, 404);
  t.match(missing.body.stack, /^TesseraError: Component "no-such-component" is not published on this registry\.\n\s+at /);
});
