import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { hashToken } from '../../src/publish/tenant-tokens';
import { request, startRegistry } from '../helpers/start-registry';
import { cliEnv, runCli } from './run-cli';

t.test('init → package → publish → GET renders the greeting', async (t) => {
  const work = await mkdtemp(path.join(os.tmpdir(), 'tessera-cli-'));
  t.teardown(() => rm(work, { recursive: true, force: true }));
  const { url } = await startRegistry(t, [], (config) => {
    config.limits.workers = 1;
    config.publishTokens = [{ tenant: 'greeters', sha256: hashToken('cli-token'), components: ['cli-*'] }];
  });

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

t.test('publish prints the registry\'s exact refusal and exits with 1', async (t) => {
  const work = await mkdtemp(path.join(os.tmpdir(), 'tessera-cli-'));
  t.teardown(() => rm(work, { recursive: true, force: true }));
  const { url } = await startRegistry(t, [], (config) => {
    config.limits.workers = 1;
    config.publishTokens = [{ tenant: 'greeters', sha256: hashToken('cli-token'), components: ['cli-*'] }];
  });
  t.equal((await runCli(['init', 'cli-refused'], { cwd: work })).code, 0);
  const publish = (token: string) => runCli(['publish', 'cli-refused', '--registry', url, '--token', token], { cwd: work });

  const wrongToken = await publish('wrong-token');
  t.equal(wrongToken.code, 1);
  t.match(
    wrongToken.stderr,
    'Error: The registry refused cli-refused@1.0.0 (401 UNAUTHORIZED): A valid publish token is required: send "Authorization: Bearer <token>".\n' +
      'Check the token: pass --token <token> or set TESSERA_TOKEN to the token your registry administrator gave you.\n',
  );

  t.equal((await publish('cli-token')).code, 0);
  const again = await publish('cli-token');
  t.equal(again.code, 1);
  t.match(
    again.stderr,
    'Error: The registry refused cli-refused@1.0.0 (409 ALREADY_EXISTS): cli-refused@1.0.0 is already published; versions are immutable.\n' +
      'Versions are immutable: raise "version" in package.json, then publish again.\n',
  );
});

t.test('commands refuse wrong arguments with what to do', async (t) => {
  const work = await mkdtemp(path.join(os.tmpdir(), 'tessera-cli-'));
  t.teardown(() => rm(work, { recursive: true, force: true }));
  const cases: Array<[string[], string]> = [
    [['init'], 'Error: tessera init needs exactly one component name, e.g. "tessera init my-greeting".\n'],
    [['init', 'My Greeting'], 'Error: "My Greeting" cannot be a component name: it must be kebab-case (lowercase letters, digits and dashes), e.g. "my-greeting".\n'],
    [['init', 'x-card', '--template', 'react'], 'Error: There is no "react" template; available: es6.\n'],
    [['publish', '.'], 'Error: tessera publish needs the registry\'s address: add --registry <url>, e.g. --registry http://localhost:3030/.\n'],
    [['publish', '.', '--registry', 'ftp://example'], 'Error: --registry must be an http:// or https:// address, not "ftp://example".\n'],
    [['publish', '.', '--registry', 'http://127.0.0.1:9/'], 'Error: No publish token: pass --token <token> or set TESSERA_TOKEN (your registry administrator gives tokens out).\n'],
    [['dev'], 'Error: tessera dev needs at least one component folder, e.g. "tessera dev ./my-component".\n'],
    [['dev', '.', '--port', 'http'], 'Error: --port must be a port number from 0 to 65535, not "http".\n'],
  ];
  const results = await Promise.all(cases.map(([args]) => runCli(args, { cwd: work })));
  cases.forEach(([args, message], i) => {
    t.equal(results[i]!.code, 1, args.join(' '));
    t.equal(results[i]!.stderr, message, args.join(' '));
  });
  t.notOk(existsSync(path.join(work, 'x-card')), 'a refused init creates nothing');

  t.equal((await runCli(['init', 'taken'], { cwd: work })).code, 0);
  const taken = await runCli(['init', 'taken'], { cwd: work });
  t.equal(taken.stderr, 'Error: taken already exists here; choose another name or remove it first.\n');

  const unreachable = await runCli(['publish', 'taken', '--registry', 'http://127.0.0.1:9/', '--token', 't'], { cwd: work });
  t.equal(unreachable.code, 1);
  t.match(unreachable.stderr, 'Error: Cannot reach the registry at http://127.0.0.1:9/ (ECONNREFUSED): check --registry and that the registry is running.\n');
});

t.test('--help on every command', async (t) => {
  const main = await runCli(['--help']);
  t.equal(main.code, 0);
  const commands = ['start', 'init', 'package', 'publish', 'dev'];
  const helps = await Promise.all(commands.map((command) => runCli([command, '--help'])));
  commands.forEach((command, i) => {
    t.match(main.stdout, new RegExp(`^  ${command} `, 'm'), `${command} is listed`);
    t.equal(helps[i]!.code, 0, command);
    t.match(helps[i]!.stdout, new RegExp(`^Usage: tessera ${command} `), command);
  });
});
