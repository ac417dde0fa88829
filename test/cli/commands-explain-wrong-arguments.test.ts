import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { runCli, workFolder } from './run-cli';

t.test('commands refuse wrong arguments with what to do', async (t) => {
  const work = await workFolder(t);
  const cases: Array<[string[], string]> = [
    [['init'], 'Error: tessera init needs exactly one component name, e.g. "tessera init my-greeting".\n'],
    [['init', 'My Greeting'], 'Error: "My Greeting" cannot be a component name: it must be kebab-case (lowercase letters, digits and dashes), e.g. "my-greeting".\n'],
    [['init', 'metrics'], 'Error: "metrics" cannot be a component name: the registry\'s own route /metrics answers at that address.\n'],
    [['init', 'x-card', '--template', 'vue'], 'Error: There is no "vue" template; available: es6, esm, react.\n'],
    [['publish', '.'], 'Error: tessera publish needs the registry\'s address: add --registry <url>, e.g. --registry http://localhost:3030/.\n'],
    [['publish', '.', '--registry', 'ftp://example'], 'Error: --registry must be an http:// or https:// address, not "ftp://example".\n'],
    [['publish', '.', '--registry', 'http://127.0.0.1:9/'], 'Error: No publish token: pass --token <token> or set TESSERA_TOKEN (your registry administrator gives tokens out).\n'],
    [['dev'], 'Error: tessera dev needs at least one component folder, e.g. "tessera dev ./my-component".\n'],
    [['dev', '.', '--port', 'http'], 'Error: --port must be a port number from 0 to 65535, not "http".\n'],
    [['package', 'missing'], `Error: ${path.join(work, 'missing')} has no package.json; create a component with "tessera init <name>".\n`],
    [['publish', 'missing', '--registry', 'http://127.0.0.1:9/', '--token', 't'], `Error: ${path.join(work, 'missing')} has no package.json; create a component with "tessera init <name>".\n`],
    [['dev', 'missing'], `Error: ${path.join(work, 'missing')} has no package.json; create a component with "tessera init <name>".\n`],
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
  t.equal(unreachable.code, 1, `ended by ${unreachable.signal ?? 'its exit code'}`);
  t.match(unreachable.stderr, 'Error: Cannot reach the registry at http://127.0.0.1:9/ (ECONNREFUSED): check --registry and that the registry is running.\n');
});
