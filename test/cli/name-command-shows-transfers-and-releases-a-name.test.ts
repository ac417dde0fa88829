import t from 'tap';
import { startRegistry } from '../helpers/start-registry';
import { put } from '../publish/publish-helpers';
import { ADMIN_TOKEN } from '../tenants/admin-helpers';
import { COOKIE_KEEPER, LABS, overlappingTenants, packedAs } from '../names/names-helpers';
import { cliEnv, runCli } from './run-cli';

t.test('tessera name shows who owns a name, transfers it and releases it, with the admin token', async (t) => {
  const { url } = await startRegistry(t, [], overlappingTenants);
  t.equal((await put(url, 'shop-labs-menu/1.0.0', await packedAs(COOKIE_KEEPER, 'shop-labs-menu', '1.0.0'), { token: LABS })).status, 201);
  const tessera = (...args: string[]) => runCli([...args, '--registry', url], { env: cliEnv({ TESSERA_ADMIN_TOKEN: ADMIN_TOKEN }) });

  const shown = await tessera('name', 'show', 'shop-labs-menu');
  t.equal(shown.code, 0, shown.stderr);
  t.match(shown.stdout, /^shop-labs-menu: owned by labs \(generation 1\)\n {2}1\t\S+\tclaim by labs\t\(config:labs, 1\.0\.0\)\n {2}versions: 1\.0\.0 \(labs\)\n$/);

  const moved = await tessera('name', 'transfer', 'shop-labs-menu', 'shop');
  t.equal(moved.code, 0, moved.stderr);
  t.match(moved.stdout, /^shop-labs-menu: owned by shop \(generation 2\)\n.*\n {2}2\t\S+\ttransfer by shop\t\(admin\)\n/);
  const released = await tessera('name', 'release', 'shop-labs-menu');
  t.match(released.stdout, /^shop-labs-menu: released \(no owner\) \(generation 3\)\n/);

  const unknown = await tessera('name', 'transfer', 'shop-labs-menu', 'nobody');
  t.same([unknown.code, unknown.stderr], [1, 'Error: The registry refused (404 NOT_FOUND): No tenant is named "nobody"; create it first with POST /~admin/tenants.\n']);
  const noName = await tessera('name', 'show');
  t.same([noName.code, noName.stderr], [1, 'Error: tessera name show needs the component\'s name, e.g. "tessera name show checkout-cart".\n']);
  const noTenant = await tessera('name', 'transfer', 'shop-labs-menu');
  t.same([noTenant.code, noTenant.stderr], [1, 'Error: tessera name transfer needs the tenant to give "shop-labs-menu" to, e.g. "tessera name transfer shop-labs-menu payments".\n']);
  const noAction = await tessera('name', 'rename', 'shop-labs-menu');
  t.same([noAction.code, noAction.stderr], [1, 'Error: tessera name needs an action: show, transfer or release, e.g. "tessera name show checkout-cart --registry http://localhost:3030/".\n']);
});
