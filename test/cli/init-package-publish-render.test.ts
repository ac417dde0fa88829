import { readdir } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { request } from '../helpers/start-registry';
import { cliEnv, cliPublishRegistry, runCli, workFolder } from './run-cli';

t.test('init → package → publish → GET renders the greeting', async (t) => {
  const work = await workFolder(t);
  const url = await cliPublishRegistry(t);

  const init = await runCli(['init', 'cli-greeting'], { cwd: work });
  t.equal(init.code, 0, init.stderr);
  const files = (await readdir(path.join(work, 'cli-greeting'), { recursive: true })).sort();
  t.same(files, ['README.md', 'package.json', 'public', 'public/styles.css', 'src', 'src/entry.server.ts', 'src/view.js']);

  const packaged = await runCli(['package', 'cli-greeting'], { cwd: work });
  t.equal(packaged.code, 0, packaged.stderr);
  t.equal(packaged.stdout, `Packaged cli-greeting@1.0.0 into ${path.join('cli-greeting', '_package')}\n`);

  const dryRun = await runCli(['publish', 'cli-greeting', '--registry', url, '--token', 'cli-token', '--dry-run'], { cwd: work });
  t.equal(dryRun.code, 0, dryRun.stderr);
  t.equal(dryRun.stdout, 'Dry run: the registry accepts cli-greeting@1.0.0; nothing was stored.\n');

  // The token from the environment this time.
  const published = await runCli(['publish', 'cli-greeting', '--registry', url], { cwd: work, env: cliEnv({ TESSERA_TOKEN: 'cli-token' }) });
  t.equal(published.code, 0, published.stderr);
  t.equal(published.stdout, `Published cli-greeting@1.0.0: ${url}cli-greeting/1.0.0\n`);
  t.match(published.stderr, /Uploading cli-greeting@1\.0\.0 to .*: 100% \(\d+\.\d kB of \d+\.\d kB\)/);

  const rendered = await request(`${url}cli-greeting?name=Ada`);
  t.equal(rendered.status, 200);
  t.match(rendered.body.html, '<p class="cli-greeting">Hello, Ada!</p>');
  t.match(rendered.body.html, `<link rel="stylesheet" href="${url}cli-greeting/1.0.0/static/public/styles.css">`);
  t.equal((await request(`${url}cli-greeting/1.0.0/static/public/styles.css`)).status, 200);
  t.equal((await request(`${url}cli-greeting/~info`)).body.oc.publisher.tenant, 'greeters');
});
