import os from 'node:os';

/** A registry plugin: a host-side function that components declaring it in `oc.plugins` may call. */
export interface RegistryPlugin {
  name: string;
  description: string;
  /** Receives the arguments the component passed (copied) and may be async. */
  func: (...args: unknown[]) => unknown;
}

export interface RegistryConfig {
  port: number;
  host: string;
  /** Public base URL ending with `/`; when unset it is derived from each request's Host header. */
  baseUrl: string | undefined;
  /** Folder of the embedded file-system storage. */
  storagePath: string;
  /** Registry environment data handed to components as `ctx.env` (has at least `name`). */
  env: Record<string, string>;
  plugins: RegistryPlugin[];
  /** Seconds between storage polls for versions published by other replicas; 0 disables polling. */
  pollIntervalSeconds: number;
  /** Development mode: error bodies may carry stack traces. */
  development: boolean;
  limits: {
    executionTimeoutMs: number;
    memoryMb: number;
    maxResultBytes: number;
    nestingDepth: number;
    maxBatchSize: number;
    jsonBodyBytes: number;
    publishBytes: number;
    workers: number;
    maxQueue: number;
    concurrentPerWorker: number;
    maxWarmIsolatesPerWorker: number;
  };
}

/** The defaults of decisions §9. */
export function defaultConfig(): RegistryConfig {
  return {
    port: 3030,
    host: '127.0.0.1',
    baseUrl: undefined,
    storagePath: './data',
    env: { name: 'local' },
    plugins: [],
    pollIntervalSeconds: 5,
    development: false,
    limits: {
      executionTimeoutMs: 5000,
      memoryMb: 64,
      maxResultBytes: 10 * 1024 * 1024,
      nestingDepth: 5,
      maxBatchSize: 50,
      jsonBodyBytes: 1024 * 1024,
      publishBytes: 20 * 1024 * 1024,
      workers: Math.max(2, os.availableParallelism()),
      maxQueue: 1000,
      concurrentPerWorker: 64,
      maxWarmIsolatesPerWorker: 500,
    },
  };
}
