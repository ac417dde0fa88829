import { readdir } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { request } from '../helpers/start-registry';
import { cliPublishRegistry, runCli, workFolder } from './run-cli';

for (const [template, markup] of [
  ['esm', '<div class="cli-greeting-esm"><link rel="stylesheet" href="STATIC/public/styles.css"/><p>Hello, Ada!</p><button type="button">Clicked 0 times</button></div>'],
  ['react', '<div class="cli-greeting-react"><link rel="stylesheet" href="STATIC/public/styles.css"/><p>Hello, <!-- -->Ada<!-- -->!</p><button type="button">Clicked <!-- -->0<!-- --> times</button></div>'],
] as const) {
  t.test(`init --template ${template} → publish → GET renders the component on the server`, async (t) => {
    const work = await workFolder(t);
    const url = await cliPublishRegistry(t);
    const name = `cli-greeting-${template}`;

    const init = await runCli(['init', name, '--template', template], { cwd: work });
    t.equal(init.code, 0, init.stderr);
    const files = (await readdir(path.join(work, name), { recursive: true })).sort();
    t.same(files, ['README.md', 'package.json', 'public', 'public/styles.css', 'src', 'src/entry.client.tsx', 'src/entry.server.ts', 'tsconfig.json']);

    const published = await runCli(['publish', name, '--registry', url, '--token', 'cli-token'], { cwd: work });
    t.equal(published.code, 0, published.stderr);

    const rendered = await request(`${url}${name}?name=Ada`);
    t.equal(rendered.status, 200);
    t.match(rendered.body.html, `<div data-oc-root>${markup.replace('STATIC', `${url}${name}/1.0.0/static`)}</div><script>(function(s){`);
    t.equal((await request(`${url}${name}/1.0.0/static/public/styles.css`)).status, 200);
  });
}
