import { defaultConfig, type RegistryConfig } from '../../src/config/config';
import { createRegistry } from '../../src/registry';
import { S3Storage, type S3StorageOptions } from '../../src/storage/s3-storage';
import { BUCKET } from './s3-server';
import type { StartedRegistry } from './start-registry';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface S3RegistryOptions {
  /** Key prefix inside the bucket; tests on one server keep apart by it. */
  prefix: string;
  /** The S3 endpoint; by default the one in this process's AWS_ENDPOINT_URL (the registry builds its own storage). */
  endpoint?: string;
  storage?: Partial<S3StorageOptions>;
  configure?: (config: RegistryConfig) => void;
}

/** A registry on a loopback port whose storage is `s3://components/<prefix>`; closed when the test ends. */
export async function startS3Registry(t: Teardown, options: S3RegistryOptions): Promise<StartedRegistry & { storage: S3Storage | undefined }> {
  const config = defaultConfig();
  config.port = 0;
  config.storagePath = `s3://${BUCKET}/${options.prefix}`;
  config.pollIntervalSeconds = 0;
  config.limits.sandboxHosts = 1;
  config.limits.frontThreads = 1;
  options.configure?.(config);
  let storage: S3Storage | undefined;
  if (options.endpoint !== undefined) {
    const timeoutMs = options.storage?.timeoutMs ?? config.limits.storageTimeoutMs;
    // Settings, not a client: the registry's publish threads build their own storage from them.
    const env = { AWS_ENDPOINT_URL: options.endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' };
    storage = new S3Storage({ bucket: BUCKET, prefix: `${options.prefix}/` }, { timeoutMs, ...options.storage, env });
  }
  const registry = await createRegistry(config, { storage });
  const url = await registry.listen();
  t.teardown(() => registry.close());
  return { registry, url, storagePath: config.storagePath, storage };
}
