import t from 'tap';
import { GREETING, packed, put, startPublishRegistry } from '../publish/publish-helpers';
import { ADMIN_TOKEN, withAdmin } from '../tenants/admin-helpers';
import { freePort } from '../helpers/free-port';
import { cliEnv, runCli } from './run-cli';

t.test('tessera tenant and tessera token manage a running registry with the admin token', async (t) => {
  const { url } = await startPublishRegistry(t, withAdmin);
  const env = cliEnv({ TESSERA_ADMIN_TOKEN: ADMIN_TOKEN });
  const tessera = (...args: string[]) => runCli([...args, '--registry', url], { env });

  const added = await tessera('tenant', 'add', 'checkout', '--components', 'publish-greet*,checkout-*', '--publishes-per-hour', '10', '--storage-bytes', '1000000', '--weight', '2');
  t.equal(added.code, 0, added.stderr);
  t.equal(added.stdout, 'Created tenant checkout: components publish-greet*, checkout-*; storage 1000000 bytes, 10 publishes per hour\n');
  const taken = await tessera('tenant', 'add', 'checkout', '--components', 'x');
  t.equal(taken.code, 1);
  t.equal(
    taken.stderr,
    'Error: The registry refused (409 ALREADY_EXISTS): Tenant "checkout" already exists; change it with PUT /~admin/tenants/checkout.\nPick another name, or look at the existing one with "tessera tenant show <name>".\n',
  );

  const created = await tessera('token', 'create', 'checkout');
  t.equal(created.code, 0, created.stderr);
  const [, id, secret] = /^Created token ([0-9a-f]{16}) for tenant checkout\.\n(tsr_\S+)\n$/.exec(created.stdout) ?? [];
  t.ok(id && secret, created.stdout);
  t.match(created.stderr, /only time the secret is shown/);

  t.equal((await put(url, 'publish-greeting/1.0.0', await packed(GREETING), { token: secret! })).status, 201, 'the token publishes');

  const list = await tessera('tenant', 'list');
  t.equal(list.stdout, 'checkout\tpublish-greet*,checkout-*\tstorage 1000000 bytes, 10 publishes per hour\n');
  const shown = await tessera('tenant', 'show', 'checkout');
  t.equal(shown.code, 0, shown.stderr);
  t.match(shown.stdout, /^Tenant checkout \(revision 1, \S+ by admin\)\n  components: publish-greet\*, checkout-\*\n  weight: 2\n  storage: \d+ bytes of 1000000\n  versions: 1\n  publishes this hour: 1 of 10\n  live tokens: 1\n$/);

  const tokens = await tessera('token', 'list', '--tenant', 'checkout');
  t.match(tokens.stdout, new RegExp(`^${id}\\tcheckout\\tcreated \\S+\\n$`));
  t.notOk(tokens.stdout.includes(secret!), 'never the secret');
  const revoked = await tessera('token', 'revoke', id!);
  t.equal(revoked.code, 0, revoked.stderr);
  t.match(revoked.stdout, new RegExp(`^Revoked token ${id} of tenant checkout \\(\\S+\\)\\.\\n$`));
  t.match((await tessera('token', 'list')).stdout, /\trevoked \S+\n$/);
  t.equal((await put(url, 'publish-greeting/1.0.1', await packed(GREETING, '1.0.1'), { token: secret! })).status, 401, 'the revoked token is refused');

  const missing = await tessera('tenant', 'show', 'nobody');
  t.equal(missing.code, 1);
  t.equal(missing.stderr, 'Error: The registry refused (404 NOT_FOUND): No tenant is named "nobody".\n');
  const wrongToken = await runCli(['tenant', 'list', '--registry', url, '--admin-token', 'wrong'], { env: cliEnv() });
  t.equal(wrongToken.code, 1);
  t.equal(
    wrongToken.stderr,
    'Error: The registry refused (401 UNAUTHORIZED): The admin token is required: send "Authorization: Bearer <admin token>".\nCheck the admin token: pass --admin-token <token> or set TESSERA_ADMIN_TOKEN; the registry must configure its sha256 (adminTokenSha256).\n',
  );
});

t.test('the admin commands explain wrong arguments', async (t) => {
  // A port nothing listens on (fetch refuses some low ports outright, such as 9).
  const closed = `http://127.0.0.1:${await freePort()}/`;
  const cases: Array<[string[], string]> = [
    [['tenant', 'list'], 'Error: tessera tenant needs the registry\'s address: add --registry <url>, e.g. --registry http://localhost:3030/.\n'],
    [['token', 'list', '--registry', 'http://127.0.0.1:9/'], 'Error: No admin token: pass --admin-token <token> or set TESSERA_ADMIN_TOKEN.\n'],
    [['tenant', 'remove', '--registry', 'http://127.0.0.1:9/', '--admin-token', 'x'], 'Error: tessera tenant needs an action: add, list or show, e.g. "tessera tenant list --registry http://localhost:3030/".\n'],
    [['tenant', 'add', 'x', '--registry', 'http://127.0.0.1:9/', '--admin-token', 'x'], 'Error: tessera tenant add needs --components <patterns>, e.g. --components "checkout-*,cart".\n'],
    [['tenant', 'add', 'x', '--components', 'x', '--storage-bytes', 'lots', '--registry', 'http://127.0.0.1:9/', '--admin-token', 'x'], 'Error: --storage-bytes must be a whole number, not "lots".\n'],
    [['token', 'create', '--registry', 'http://127.0.0.1:9/', '--admin-token', 'x'], 'Error: tessera token create needs the tenant\'s name, e.g. "tessera token create checkout".\n'],
    [['token', 'list', '--registry', closed, '--admin-token', 'x'], `Error: Cannot reach the registry at ${closed} (ECONNREFUSED): check --registry and that the registry is running.\n`],
  ];
  const results = await Promise.all(cases.map(([args]) => runCli(args, { env: cliEnv() })));
  cases.forEach(([args, message], i) => {
    t.equal(results[i]!.code, 1, args.join(' '));
    t.equal(results[i]!.stderr, message, args.join(' '));
  });
  for (const command of ['tenant', 'token']) {
    const help = await runCli([command, '--help'], { env: cliEnv() });
    t.equal(help.code, 0);
    t.match(help.stdout, new RegExp(`^Usage: tessera ${command} `));
  }
});
