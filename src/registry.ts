import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyListenOptions } from 'fastify';
import { Catalog } from './catalog/catalog';
import { pollStorage } from './catalog/poll-storage';
import type { RegistryConfig } from './config/config';
import { createApp } from './front/create-app';
import { assertPortIsFree } from './front/port-is-free';
import { listenUrl, PublicBaseUrl } from './front/public-base-url';
import { Readiness } from './front/readiness';
import { frontThreadsFor } from './fronts/front-thread-count';
import { FrontThreads } from './fronts/front-threads';
import { observeCatalog } from './metrics/catalog-metrics';
import { RegistryMetrics, type MetricsJson } from './metrics/registry-metrics';
import { TesseraError } from './errors/errors';
import { createBridgeAnswerer } from './pipeline/bridge-calls';
import { RenderPipeline } from './pipeline/render';
import { observePublishPool } from './publish/publish-metrics';
import { throwUnlessPublished, type PublishOutcome } from './publish/publish-outcome';
import type { PublishJob } from './publish/publish-package';
import { PublishPool } from './publish/publish-pool';
import { serverScriptBounds } from './publish/server-script-bounds';
import { removeSpoolsOfEndedProcesses } from './publish/spool-upload';
import { createSocketFolder } from './sandbox/socket-folder';
import type { HostSharing, RecycleReason, SharedHost } from './sandbox/host-sharing';
import { SandboxPool } from './sandbox/sandbox-pool';
import { createStorage } from './storage/create-storage';
import { claimStoredNames } from './names/claim-stored-names';
import { AuditLog } from './audit/audit-log';
import { AuditMaintenance } from './audit/audit-maintenance';
import { observeTenants } from './tenants/tenant-metrics';
import { TenantDirectory } from './tenants/tenant-directory';
import { tenantWeight } from './tenants/tenant-weight';
import type { StorageAdapter } from './storage/storage-adapter';
import { MainTails } from './tail/main-tails';
import { TailHub, type TailControl } from './tail/tail-hub';
import { TailMetrics } from './tail/tail-metrics';
import { internalAddressOf } from './tail/internal-address';
import { PeerTails } from './tail/peer-tails';
import { ReplicaAnnouncer } from './tail/replica-announcer';
import { newestFirst, type LastError, type LastErrors } from './tail/last-errors';

/** Past the execution time limit, how long a close waits for the last requests before it cuts connections. */
const CLOSE_MARGIN_MS = 2000;

export interface Registry {
  app: FastifyInstance;
  catalog: Catalog;
  storage: StorageAdapter;
  /** Tenants and tokens in storage, as of the last poll. */
  tenants: TenantDirectory;
  pool: SandboxPool;
  /** This registry's own metrics (served at `/metrics`, summed with its other front threads'). */
  metrics: RegistryMetrics;
  readiness: Readiness;
  /** The tails open on this front thread. */
  tails: TailHub;
  /** Each component's last failures on this front thread. */
  lastErrors: LastErrors;
  /** The process's publish pool: the main thread's registry has it, a front thread's sends its uploads there. */
  publishes: PublishPool | undefined;
  /**
   * Listens on the configured port and host, and starts the other front threads on the same port;
   * answers the base URL (`http://127.0.0.1:3030/`).
   */
  listen(): Promise<string>;
  /** A front thread's registry: listens on the main thread's port, beside its socket. */
  listenOn(port: number): Promise<void>;
  close(): Promise<void>;
  /**
   * Stops gracefully (SIGTERM): `/readyz` turns 503 at once while requests are still served for
   * `limits.drainDelayMs` (load balancers stop sending), then the listener closes and in-flight requests
   * finish, all within `limits.drainTimeoutMs`. Answers whether everything finished in time.
   */
  drain(): Promise<boolean>;
}

/** What a front thread's registry is given by the main thread (src/fronts/front-thread.ts). */
export interface FrontThreadRole {
  /** 1 for the first thread besides the main thread's front, and so on. */
  index: number;
  /** Front threads of the registry, the main thread's included. */
  fronts: number;
  /** The hosts the main thread's pool announced so far. */
  hosts: SharedHost[];
  recycle(pid: number, reason: RecycleReason): void;
  /** A version was published through this thread: the other fronts index it. */
  published(name: string, version: string): Promise<void>;
  /** Tenants or tokens were written through this thread: the other fronts read them again. */
  tenantsChanged(): Promise<void>;
  /** Runs a publish in the main thread's publish pool; `left` aborts when its client closed the connection. */
  publish(job: PublishJob, file: string, left: AbortSignal): Promise<PublishOutcome>;
  otherMetrics(): Promise<MetricsJson[]>;
  /** A component's last failures on each of the process's other front threads. */
  otherLastErrors(name: string): Promise<LastError[][]>;
  /** The main thread's roster of the process's tails, and the way to its other fronts' tails. */
  tails: TailControl;
}

export interface RegistryOptions {
  logger?: boolean;
  /** A storage adapter object (tests); such a registry serves from the main thread only. */
  storage?: StorageAdapter;
  /** Set in a front thread: the registry uses the main thread's sandbox hosts. */
  frontThread?: FrontThreadRole;
}

/** Wires storage, catalog, sandbox pool, render pipeline and HTTP front into one registry. */
export async function createRegistry(config: RegistryConfig, options: RegistryOptions = {}): Promise<Registry> {
  // Error bodies carry stacks only in development: elsewhere a coded error need not capture one.
  TesseraError.keepStacks = config.development;
  const storage = options.storage ?? createStorage({ location: config.storagePath, timeoutMs: config.limits.storageTimeoutMs });
  const frontThread = options.frontThread;
  // Sockets share a port only on Linux (SO_REUSEPORT); an adapter object cannot be handed to a thread.
  const threadCount = frontThread || options.storage || process.platform !== 'linux' ? 0 : frontThreadsFor(config.limits) - 1;
  const fronts = frontThread ? frontThread.fronts : threadCount + 1;
  // The sockets of the sandbox hosts this registry starts: a folder only this user can open.
  const socketFolder = frontThread ? '' : createSocketFolder();
  let threads: FrontThreads | undefined;
  const sharing: HostSharing = frontThread
    ? { role: 'guest', hosts: frontThread.hosts, recycle: frontThread.recycle }
    : { role: 'owner', socketFolder, announce: (host) => threads?.announce(host) };
  // A stored version that cannot be read is skipped and told once (decisions §12), after the app's logger exists.
  const catalog = new Catalog(storage, {
    onUnreadable: (id, reason) => app.log.error(`skipped ${id}: it cannot be read from storage: ${reason}`),
    onNotice: (message) => app.log.warn(`catalog: ${message}`),
    // An unpublished version: the leases this process's pool granted before no longer run it.
    onDropped: (name, version) => pool.revoke(name, version),
    // One writer of the index per process: the main thread, which loads the catalog before its front threads start.
    maintainsIndex: !frontThread,
  });

  // Tenants and tokens in storage (decisions §14), read again at each poll with the catalog.
  const tenants = new TenantDirectory(storage);

  // Process-wide figures (memory, CPU) are the main thread's to report, once.
  const metrics = new RegistryMetrics({ processMetrics: !frontThread });
  observeCatalog(metrics.registry, catalog);
  if (!frontThread) observeTenants(metrics.registry, tenants, storage, catalog, config.tenants.default);
  let logHostOutput = (_pid: number, text: string): void => void process.stderr.write(text);
  const pool = new SandboxPool({
    limits: {
      memoryMb: config.limits.memoryMb,
      timeoutMs: config.limits.executionTimeoutMs,
      maxResultChars: config.limits.maxResultBytes,
      maxWarmIsolates: config.limits.maxWarmIsolatesPerHost,
      warmIsolateBytes: config.limits.warmIsolateMbPerHost * 1024 * 1024,
      maxNestedBatch: config.limits.maxBatchSize,
      maxNestedRenders: config.limits.maxExecutionsPerRequest,
      hostMemoryBytes: config.limits.hostMemoryMb * 1024 * 1024,
    },
    hosts: config.limits.sandboxHosts,
    sharing,
    ownSlot: frontThread ? frontThread.index : threadCount > 0 ? 0 : undefined,
    // The registry's admission limits, shared out between its front threads.
    maxQueue: Math.ceil(config.limits.maxQueue / fronts),
    concurrentPerHost: Math.ceil(config.limits.concurrentPerHost / fronts),
    maxConcurrentPerComponent: Math.ceil(config.limits.maxConcurrentPerComponent / fronts),
    hostMemoryBytes: config.limits.hostMemoryMb * 1024 * 1024,
    bridge: (request) => bridge(request),
    weightOf: tenantWeight(tenants, config.tenants.weights),
    events: metrics.sandboxEvents,
    // Through the registry's log once it exists; a host can write before that (a failed start).
    logHostOutput: (pid, text) => logHostOutput(pid, text),
  });
  metrics.observePool(pool);
  // The tails of this front (src/tail/): the main thread admits those of the whole process and carries records between fronts.
  const tails = new TailHub();
  const mainTails = frontThread ? undefined : new MainTails(tails, config.limits.tailsPerTenant);
  if (frontThread) tails.connect(frontThread.tails);
  // Where the other replicas reach this one, once it listens; a replica that does not poll storage runs alone and announces nothing.
  let internalAddress: string | undefined;
  const heartbeatMs = config.replicaHeartbeatSeconds * 1000;
  const listensAt = (port: number) => void (internalAddress = config.pollIntervalSeconds > 0 ? internalAddressOf(config.internalAddress, config.host, port) : undefined);
  const peerTails = new PeerTails({ storage, heartbeatMs, ownAddress: () => internalAddress, warn: (message) => app.log.warn(`tails: ${message}`) });
  let announcer: ReplicaAnnouncer | undefined;
  // A token revoked since the last read ends its tails.
  tenants.afterRefresh(() => tails.recheck());
  // Called only once serving, when `app` exists: nested renders log under their root request's id.
  const logLine = (fields: Record<string, unknown>, message: string) => app.log.info(fields, message);
  const nestedLog = { failed: logLine, rendered: config.logRequests ? logLine : undefined };
  const pipeline = new RenderPipeline(catalog, pool, config, metrics, nestedLog, tails);
  const bridge = createBridgeAnswerer(pipeline, config.plugins, nestedLog);
  const publicBaseUrl = new PublicBaseUrl(config.baseUrl, config.host, config.port);
  const readiness = new Readiness(async () => pool.stats().hosts > 0);
  const published = frontThread ? frontThread.published : (name: string, version: string) => threads?.published(name, version) ?? Promise.resolve();
  const tenantsChanged = async (): Promise<void> => {
    await tenants.refresh();
    await (frontThread ? frontThread.tenantsChanged() : threads?.tenantsChanged());
  };
  // One publish pool per process, in the main thread: every front thread's uploads go to it.
  const publishPool = frontThread
    ? undefined
    : new PublishPool({
        threads: config.limits.publishThreads,
        checkSeconds: config.limits.publishCheckSeconds,
        niceness: config.limits.publishThreadNiceness,
        storage: storage.settings,
        rules: { maxBytes: config.limits.publishBytes, dependencyPolicy: config.dependencyPolicy, serverScript: serverScriptBounds(config.limits), defaultTenant: config.tenants.default },
        weightOf: tenantWeight(tenants, config.tenants.weights),
        onThreadLost: (error) => app.log.warn(`publish: a publish thread ended with no task of its own (${error.message}); the next publish starts another`),
      });
  if (publishPool) observePublishPool(metrics.registry, publishPool);
  const runPublish = frontThread ? frontThread.publish : (job: PublishJob, file: string, left: AbortSignal) => publishPool!.run(job, file, left);
  const publish = async (job: PublishJob, file: string, left: AbortSignal) => throwUnlessPublished(await runPublish(job, file, left));
  // A component's page shows its last failures on every front thread of the process, newest first.
  const lastErrors = async (name: string) =>
    newestFirst([pipeline.lastErrors.of(name), ...(await (frontThread ? frontThread.otherLastErrors(name) : (threads?.lastErrors(name) ?? [])))]);
  const app = await createApp({ config, catalog, storage, pipeline, metrics, publicBaseUrl, readiness, tenants, audit: new AuditLog(storage), tails, tailMetrics: new TailMetrics(metrics.registry), peerTails, lastErrors, published, tenantsChanged, publish }, { logger: options.logger });
  logHostOutput = (pid, text) => app.log.warn({ sandboxHost: pid }, text.trimEnd());
  if (threadCount > 0) {
    threads = new FrontThreads({ config, catalog, tenants, metrics, pool, tails: mainTails!, lastErrors: pipeline.lastErrors, publish: runPublish, logger: options.logger ?? false, log: (message) => app.log.error(message) }, threadCount);
  }
  const otherMetrics = frontThread ? frontThread.otherMetrics : threads ? () => threads!.metrics() : undefined;
  if (otherMetrics) metrics.sumWith(otherMetrics);

  try {
    // The main thread's alone: a thread starting later could remove a publish under way.
    const leftovers = frontThread ? 0 : await storage.removeInterruptedWrites?.();
    if (leftovers) app.log.warn(`removed ${leftovers} staging folder(s) left by interrupted publishes`);
    const spools = frontThread ? 0 : await removeSpoolsOfEndedProcesses();
    if (spools) app.log.warn(`removed ${spools} upload folder(s) left by registry processes that ended`);
    await Promise.all([catalog.refresh(), tenants.refresh()]);
  } catch (error) {
    // Storage that cannot be read must end the start, not leave the sandbox hosts running.
    await pool.close();
    await publishPool?.close();
    await storage.close?.();
    if (socketFolder) rmSync(socketFolder, { recursive: true, force: true });
    throw error;
  }
  // Names stored before claims existed, claimed for their first version's tenant: in the background,
  // since a publish claims its own name (or finds its owner) the same way when it comes first.
  const claiming = frontThread
    ? undefined
    : claimStoredNames(storage, catalog.names(), config.tenants.default).then(
        (count) => void (count > 0 && app.log.info(`claimed ${count} component name(s) stored before names had owners`)),
        (error: Error) => app.log.warn(`stored names could not all be claimed now (each is claimed at its next publish or lifecycle change): ${error.message}`),
      );
  // The audit log's retention, by the process that maintains the catalog's index; a failed pass is tried at a later poll.
  const audit = frontThread ? undefined : new AuditMaintenance(storage, { retentionDays: config.auditRetentionDays });
  const maintainAudit = async () => {
    await audit?.run().catch((error: unknown) => app.log.warn(`audit log: ${(error as Error).message}`));
  };
  const stopPolling =
    config.pollIntervalSeconds > 0
      ? pollStorage(
          { refresh: async () => void (await Promise.all([catalog.refresh(), tenants.refresh(), maintainAudit()])) },
          config.pollIntervalSeconds * 1000,
          (error) => app.log.error(error),
        )
      : undefined;

  let closed: Promise<void> | undefined;
  // Once: draining ends by closing, and whoever owns the registry may close it again.
  const close = () =>
    (closed ??= (async () => {
      readiness.drain();
      const leaving = announcer?.stop();
      threads?.drain();
      stopPolling?.();
      // Requests under way end within their time limit; a connection still open after that carries
      // none (a client that connected and never sent one) and would hold the close for good.
      const cutOff = setTimeout(() => app.server.closeAllConnections(), config.limits.executionTimeoutMs + CLOSE_MARGIN_MS);
      // The other front threads close beside this one, before the pool ends the hosts they use.
      await Promise.all([threads?.close(), app.close()]);
      clearTimeout(cutOff);
      await Promise.all([pool.close(), publishPool?.close(), pipeline.close(), claiming, leaving]);
      await storage.close?.();
      if (socketFolder) rmSync(socketFolder, { recursive: true, force: true });
    })());
  return {
    app,
    catalog,
    storage,
    tenants,
    pool,
    metrics,
    readiness,
    tails,
    lastErrors: pipeline.lastErrors,
    publishes: publishPool,
    async listen() {
      if (threads !== undefined && config.port !== 0) await assertPortIsFree(config.port, config.host);
      await app.listen(sharedPort(config.port, config.host, threads !== undefined));
      const { port } = app.server.address() as AddressInfo;
      publicBaseUrl.listeningOn(config.host, port);
      listensAt(port);
      if (internalAddress !== undefined) {
        announcer = new ReplicaAnnouncer(storage, { address: internalAddress, heartbeatMs, warn: (message) => app.log.warn(`tails: ${message}`) });
        await announcer.start();
      }
      try {
        await threads?.start(port);
      } catch (error) {
        await close();
        throw error;
      }
      return listenUrl(config.host, port);
    },
    async listenOn(port) {
      await app.listen(sharedPort(port, config.host, true));
      publicBaseUrl.listeningOn(config.host, port);
      listensAt(port);
    },
    close,
    async drain() {
      readiness.drain();
      // Its record goes first: no tail opens a stream to a replica on its way out.
      void announcer?.stop();
      threads?.drain();
      const finished = (async () => {
        await new Promise((resolve) => setTimeout(resolve, Math.min(config.limits.drainDelayMs, config.limits.drainTimeoutMs)));
        await close();
        return true;
      })();
      const bound = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), config.limits.drainTimeoutMs).unref());
      return Promise.race([finished, bound]);
    },
  };
}

/**
 * Listen options; `reusePort` lets the front threads' sockets share the port (fastify hands it to
 * Node's `server.listen`, though its types do not name it).
 */
const sharedPort = (port: number, host: string, reusePort: boolean): FastifyListenOptions =>
  ({ port, host, reusePort }) as FastifyListenOptions;
