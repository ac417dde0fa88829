/** Child-process entry: a registry over an already filled storage, with optional limit overrides. */
import { defaultConfig, type RegistryConfig } from '../../src/config/config';
import { createRegistry } from '../../src/registry';
import { serveUntilStopped } from '../server-process';

export interface RegistryServerOptions {
  storagePath: string;
  limits?: Partial<RegistryConfig['limits']>;
  /** Tokens that may publish to it (none by default). */
  publishTokens?: RegistryConfig['publishTokens'];
  /** The administrator's token's sha256 (none by default). */
  adminTokenSha256?: string;
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2]!) as RegistryServerOptions;
  const config = defaultConfig();
  config.port = 0;
  config.host = '127.0.0.1';
  config.storagePath = options.storagePath;
  config.pollIntervalSeconds = 0;
  Object.assign(config.limits, options.limits);
  config.publishTokens = options.publishTokens ?? [];
  config.adminTokenSha256 = options.adminTokenSha256;
  const registry = await createRegistry(config);
  const url = await registry.listen();
  serveUntilStopped({ type: 'ready', url, sandboxHosts: registry.pool.size }, () => registry.close());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
