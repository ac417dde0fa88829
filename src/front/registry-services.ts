import type { Catalog } from '../catalog/catalog';
import type { RegistryConfig } from '../config/config';
import type { RegistryMetrics } from '../metrics/registry-metrics';
import type { RenderPipeline } from '../pipeline/render';
import type { PublishJob } from '../publish/publish-package';
import type { AuditLog } from '../audit/audit-log';
import type { StorageAdapter } from '../storage/storage-adapter';
import type { TenantDirectory } from '../tenants/tenant-directory';
import type { TailHub } from '../tail/tail-hub';
import type { TailMetrics } from '../tail/tail-metrics';
import type { PeerTails } from '../tail/peer-tails';
import type { LastError } from '../tail/last-errors';
import type { PublicBaseUrl } from './public-base-url';
import type { Readiness } from './readiness';

/** What the routes need; handed to each route module. */
export interface RegistryServices {
  config: RegistryConfig;
  catalog: Catalog;
  storage: StorageAdapter;
  pipeline: RenderPipeline;
  metrics: RegistryMetrics;
  /** Configured, or the listen address; never taken from a request. */
  publicBaseUrl: PublicBaseUrl;
  readiness: Readiness;
  /** Tenants and tokens in storage, as of this replica's last poll (decisions §14). */
  tenants: TenantDirectory;
  audit: AuditLog;
  /** The tails open on this front thread (src/tail/), and their metrics. */
  tails: TailHub;
  tailMetrics: TailMetrics;
  /** This front thread's tails that gather the other replicas' executions. */
  peerTails: PeerTails;
  /** A component's last failures on every front thread of this replica, newest first. */
  lastErrors(name: string): Promise<LastError[]>;
  /**
   * Publishes the upload received into `file` in one of the registry's publish threads, when its
   * tenant's turn comes (src/publish/publish-pool.ts); rejects with the coded refusal. It stores the
   * version; indexing it is the caller's. The file stays the caller's to remove, once this ended.
   * Once `left` aborts (the client closed the connection), a publish still waiting never runs.
   */
  publish(job: PublishJob, file: string, left: AbortSignal): Promise<void>;
  /** A version was published through this front: the registry's other front threads index it too. */
  published(name: string, version: string): Promise<void>;
  /**
   * A tenant, token or revocation was written through this front: every front thread of the registry
   * reads them again before the change is answered (other replicas at their next poll).
   */
  tenantsChanged(): Promise<void>;
}
