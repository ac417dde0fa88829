import { defaultConfig, type RegistryConfig } from '../../src/config/config';
import { createRegistry, type Registry } from '../../src/registry';
import { packTarball } from '../../src/packager/pack-tarball';
import { hashToken } from '../../src/publish/tenant-tokens';
import { fixture } from '../helpers/start-registry';
import { GREETERS_TOKEN, packagedFiles, withDescriptor } from '../publish/publish-helpers';
import { withAdmin } from '../tenants/admin-helpers';

/**
 * Two tenants whose patterns overlap: `shop` may publish `shop-*`,
 * `labs` `shop-labs-*` (which `shop-*` covers too); and a bystander, `greeters` (`publish-greet*`).
 */
export const SHOP = 'shop-token-secret';
export const LABS = 'labs-token-secret';
export { GREETERS_TOKEN as BYSTANDER };

export function overlappingTenants(config: RegistryConfig): void {
  config.publishTokens = [
    { tenant: 'shop', sha256: hashToken(SHOP), components: ['shop-*'] },
    { tenant: 'labs', sha256: hashToken(LABS), components: ['shop-labs-*'] },
    { tenant: 'greeters', sha256: hashToken(GREETERS_TOKEN), components: ['publish-greet*'] },
  ];
  withAdmin(config);
}

/** A component that keeps a session cookie (`?login=true`) and shows the cookies it is given. */
export const COOKIE_KEEPER = fixture('tenant-beta');

/** `dir` packed as `name@version`. */
export async function packedAs(dir: string, name: string, version: string): Promise<Buffer> {
  return packTarball(await withDescriptor((descriptor) => Object.assign(descriptor, { name, version }), await packagedFiles(dir)));
}

/** The refusal a tenant gets for a name another tenant owns. */
export const nameTaken = (tenant: string, name: string, version: string, owner: string) => ({
  code: 'FORBIDDEN',
  error: `Tenant "${tenant}" may not publish "${name}": the name belongs to tenant "${owner}".`,
  name,
  requestVersion: version,
  details: { name, owner },
});

/** Another replica over the storage folder of a started registry (its own process's pools, the same files). */
export async function replicaOver(t: { teardown(fn: () => unknown): void }, storagePath: string, configure: (config: RegistryConfig) => void): Promise<{ registry: Registry; url: string }> {
  const config = defaultConfig();
  Object.assign(config, { port: 0, storagePath, pollIntervalSeconds: 0 });
  config.limits.sandboxHosts = 1;
  config.limits.frontThreads = 1;
  configure(config);
  const registry = await createRegistry(config);
  const url = await registry.listen();
  t.teardown(() => registry.close());
  return { registry, url };
}
