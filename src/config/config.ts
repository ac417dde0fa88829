import os from 'node:os';

/** A registry plugin: a host-side function that components declaring it in `oc.plugins` may call. */
export interface RegistryPlugin {
  name: string;
  description: string;
  /** Receives the arguments the component passed (copied) and may be async. */
  func: (...args: unknown[]) => unknown;
}

/** A publish token of one tenant: only its sha256 is configured, never the token itself. */
export interface PublishToken {
  tenant: string;
  /** sha256 of the token, lowercase hex. */
  sha256: string;
  /** Component-name patterns the tenant may publish; `*` matches any run of characters (`checkout-*`). */
  components: string[];
}

/** What component server code may depend on (decisions §7); Node built-ins and native modules are always refused. */
export interface DependencyPolicy {
  /** Packages refused (file-system and network libraries by default); `*` matches any run of characters (`@aws-sdk/*`). */
  deny: string[];
  /** Packages accepted even when `deny` names them or they carry a Node built-in's name (the npm `events` or `buffer` polyfills). */
  allow: string[];
}

export interface RegistryConfig {
  port: number;
  host: string;
  /** Public base URL ending with `/`; when unset it is derived from each request's Host header. */
  baseUrl: string | undefined;
  /** Folder of the embedded file-system storage, or `s3://bucket[/prefix]` for an S3-compatible store. */
  storagePath: string;
  /** Public base URL of static files and `template.js` (a CDN in front of the replicas), ending with `/`; the base URL when unset. */
  staticBaseUrl: string | undefined;
  /** Registry environment data handed to components as `ctx.env` (has at least `name`). */
  env: Record<string, string>;
  plugins: RegistryPlugin[];
  /** Who may publish what; with none configured (nor any in storage), publishing is refused. */
  publishTokens: PublishToken[];
  /** Tenants at run time (decisions §13): whose share of the sandbox each execution spends. */
  tenants: {
    /** The tenant of versions whose descriptor names no publisher (published before tenants were recorded). */
    default: string;
    /** Each tenant's weight in the sandbox's fair share; a tenant not listed weighs 1. */
    weights: Record<string, number>;
  };
  /** Seconds between storage polls for versions published by other replicas; 0 disables polling. */
  pollIntervalSeconds: number;
  /**
   * Where the other replicas reach this one (`http://10.0.3.7:3030/`, src/tail/internal-address.ts):
   * announced in storage so that a tail gathers every replica's executions. Unset: the listening
   * address when it is a concrete one; none when it listens on every interface.
   */
  internalAddress: string | undefined;
  /** Seconds between a replica's announcements in storage; one silent for four of them is gone. */
  replicaHeartbeatSeconds: number;
  /** Hours after its publish during which the publishing tenant may unpublish a version (the administrator may at any time). */
  unpublishWindowHours: number;
  /** Days the audit log keeps an entry (src/audit/audit-maintenance.ts); 0 keeps every entry. */
  auditRetentionDays: number;
  /** sha256 (lowercase hex) of the administrator's token (src/config/admin-token.ts): it manages tenants and tokens (`/~admin/`) and may unpublish any version; none: no administrator. */
  adminTokenSha256: string | undefined;
  /** Development mode: error bodies may carry stack traces. */
  development: boolean;
  /** One log line per request answered (an access log); errors and warnings are logged either way. */
  logRequests: boolean;
  dependencyPolicy: DependencyPolicy;
  /** Origins whose pages may call the registry from a browser (decisions §10); `*` in the list allows every page. */
  cors: { origins: string[] };
  limits: {
    executionTimeoutMs: number;
    memoryMb: number;
    maxResultBytes: number;
    nestingDepth: number;
    maxBatchSize: number;
    jsonBodyBytes: number;
    publishBytes: number;
    /**
     * Sandbox host processes: the failure domain of tenant code (workers/sandbox-host.ts). One per
     * two CPUs: a host runs its isolates on threads of its own, so one keeps up with the front
     * threads of 2 CPUs, and each more costs its 50 MB idle (bench/FINDINGS.md).
     */
    sandboxHosts: number;
    /**
     * Threads serving HTTP on the registry's port, the main thread's included, all over the same
     * sandbox hosts (src/fronts/). More than one only on Linux, where sockets can share a port. One
     * per two CPUs, the other CPU of each pair left to the hosts: each thread holds 70 to 90 MB under
     * load, and one thread on 2 CPUs, its executions sent in frames (src/sandbox/outbox.ts), answered
     * 1 to 15 % fewer requests than two did on a loaded machine, for 70 MB less (bench/FINDINGS.md).
     */
    frontThreads: number;
    /** Threads that receive, check and store published packages, apart from the fronts and the sandbox hosts (src/publish/). */
    publishThreads: number;
    /**
     * Seconds a publish thread may spend on one package before it is stored: unpacking and every
     * check; past it the thread is ended and the package refused (PACKAGE_TOO_COMPLEX).
     */
    publishCheckSeconds: number;
    /**
     * How much lower than renders a publish thread is scheduled (nice(2), 0 to 19): a publish yields
     * the CPUs to renders. 0 schedules publishes as renders, for a replica that only publishes.
     */
    publishThreadNiceness: number;
    /** Largest `server.js` a publish parses (SERVER_SCRIPT_TOO_LARGE); it also sizes a publish thread's heap. */
    serverScriptBytes: number;
    /** Most lines of a `server.js` a publish parses (PACKAGE_TOO_COMPLEX). */
    serverScriptLines: number;
    /** Deepest nesting of brackets in a `server.js` a publish parses (PACKAGE_TOO_COMPLEX). */
    serverScriptNesting: number;
    /** Dry runs (`?dryRun=true`) one tenant may ask for per clock hour, counted in storage (QUOTA_EXCEEDED). */
    dryRunsPerHour: number;
    maxQueue: number;
    concurrentPerHost: number;
    /** Executions of one component (all its versions) running at once; more wait in that component's own queue. */
    maxConcurrentPerComponent: number;
    maxWarmIsolatesPerHost: number;
    /** Heap the warm isolates of one host may hold together before the least recently used go. */
    warmIsolateMbPerHost: number;
    /** Resident memory of a host past which it is drained and replaced. */
    hostMemoryMb: number;
    /** Executions one request from outside may run across all its nested renders. */
    maxExecutionsPerRequest: number;
    /** Execution slots one request from outside may hold at once, its nested renders' included. */
    maxSlotsPerRequest: number;
    /** Bytes (characters) of nested answers one request from outside may pull through the front, in all. */
    maxNestedBytesPerRequest: number;
    /** Lifecycle changes (unpublish, deprecate, its undoing) one tenant may make per clock minute, on all replicas together; a stored tenant's quota overrides it. */
    lifecycleChangesPerMinute: number;
    /** Deadline of one call to the storage (S3); past it the request fails with STORAGE_UNAVAILABLE. */
    storageTimeoutMs: number;
    /** On SIGTERM, how long the replica keeps serving after `/readyz` turned 503, so load balancers stop sending it requests. */
    drainDelayMs: number;
    /** On SIGTERM, how long draining may take in all before the process exits anyway. */
    drainTimeoutMs: number;
    /** A request whose headers are not all in within this long is answered 408 and its connection closed. */
    requestHeadersTimeoutMs: number;
    /** A request body from which nothing arrives for this long is answered 408 and its connection closed (a steady upload, however slow, is not). */
    requestBodyIdleMs: number;
    /** Tails (`GET /~tail`) one tenant may have open on one replica at once, the administrator's counted apart; past it TOO_MANY_TAILS. */
    tailsPerTenant: number;
    /** Characters of events one tail holds for a reader that does not take them; past it they are dropped, counted and told. */
    tailBufferBytes: number;
  };
}

/** The defaults of decisions §9. */
export function defaultConfig(): RegistryConfig {
  return {
    port: 3030,
    host: '127.0.0.1',
    baseUrl: undefined,
    storagePath: './data',
    staticBaseUrl: undefined,
    env: { name: 'local' },
    plugins: [],
    publishTokens: [],
    tenants: { default: 'default', weights: {} },
    pollIntervalSeconds: 5,
    internalAddress: undefined,
    replicaHeartbeatSeconds: 5,
    unpublishWindowHours: 72,
    auditRetentionDays: 365,
    adminTokenSha256: undefined,
    development: false,
    logRequests: false,
    dependencyPolicy: {
      deny: ['fs-extra', 'graceful-fs', 'mkdirp', 'rimraf', 'glob', 'chokidar', 'axios', 'node-fetch', 'got', 'request', 'superagent', 'needle', 'undici', 'ws'],
      allow: [],
    },
    cors: { origins: ['*'] },
    limits: {
      executionTimeoutMs: 5000,
      memoryMb: 64,
      maxResultBytes: 10 * 1024 * 1024,
      nestingDepth: 5,
      maxBatchSize: 50,
      jsonBodyBytes: 1024 * 1024,
      publishBytes: 20 * 1024 * 1024,
      sandboxHosts: Math.min(4, Math.ceil(os.availableParallelism() / 2)),
      frontThreads: process.platform === 'linux' ? Math.max(1, Math.min(4, Math.floor(os.availableParallelism() / 2))) : 1,
      publishThreads: 1,
      publishCheckSeconds: 20,
      publishThreadNiceness: 10,
      serverScriptBytes: 5 * 1024 * 1024,
      serverScriptLines: 250_000,
      serverScriptNesting: 256,
      dryRunsPerHour: 120,
      maxQueue: 1000,
      // The pool's slots are what they were with a host per CPU: 256 on 2 CPUs, 512 on 4.
      concurrentPerHost: 256,
      // Half the pool's slots on 2 CPUs (1 host × 256): a hot component leaves the other half to
      // every other component. At 64, a batch of one component's items from 50 connections waited
      // in its queue, each freed slot sending one item at a time: 30 % fewer batches (bench/FINDINGS.md).
      maxConcurrentPerComponent: 128,
      maxWarmIsolatesPerHost: 500,
      warmIsolateMbPerHost: 512,
      hostMemoryMb: 2048,
      maxExecutionsPerRequest: 100,
      maxSlotsPerRequest: 64,
      maxNestedBytesPerRequest: 20 * 1024 * 1024,
      lifecycleChangesPerMinute: 60,
      storageTimeoutMs: 5000,
      drainDelayMs: 2000,
      drainTimeoutMs: 8000,
      requestHeadersTimeoutMs: 10_000,
      requestBodyIdleMs: 10_000,
      tailsPerTenant: 5,
      tailBufferBytes: 1024 * 1024,
    },
  };
}
