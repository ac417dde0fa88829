import type { BridgeRequest } from './execution-job';
import type { HostSharing } from './host-sharing';
import type { SandboxLimits } from './protocol';
import type { QuarantineScope } from './quarantine';

/** What the pool reports as it happens (the metrics count them). */
export interface SandboxEvents {
  /** A host died, stopped answering or was recycled, and a new one took its place. */
  hostReplaced(reason: 'exited' | 'silent' | 'overdue' | 'isolate-lost' | 'memory'): void;
  /** V8 lost control of an isolate of this tenant's: its executions were answered, its host is recycled. */
  isolateLost(tenant: string): void;
  /** A component, or every component of a tenant, is refused for a while after repeated losses. */
  quarantined(tenant: string, scope: QuarantineScope): void;
  /** A tenant's isolates spent this CPU time (reported by the hosts every half second). */
  cpuSpent(tenant: string, seconds: number): void;
}

/** Figures from the hosts' latest reports. */
export interface SandboxStats {
  /** Hosts started and ready. */
  hosts: number;
  warmIsolates: number;
  heapBytes: number;
  rssBytes: number;
  /** Components reported busy (running code for a while), summed over the hosts. */
  busyComponents: number;
}

export interface SandboxPoolOptions {
  limits: SandboxLimits;
  hosts: number;
  sharing: HostSharing;
  /** With several front threads, this thread's own host (its index): where its hot components go first. */
  ownSlot?: number;
  /** Executions from outside that may wait for a slot before the pool answers OVERLOADED. */
  maxQueue: number;
  /** Executions from outside one host runs at once (they mostly wait on isolates and nested renders). */
  concurrentPerHost: number;
  /** Executions from outside of one component running at once; more wait in that component's own queue. */
  maxConcurrentPerComponent: number;
  /** Resident memory past which a host is drained and replaced (memory its isolates hold outside their heaps). */
  hostMemoryBytes: number;
  /** Answers nested renders and plugin calls made from inside isolates. */
  bridge: (request: BridgeRequest) => Promise<string>;
  /** A tenant's weight in the fair share of the sandbox's slots (1 when it has none configured). */
  weightOf: (tenant: string) => number;
  events: SandboxEvents;
  /** Logs what a host process wrote to its stderr. */
  logHostOutput: (pid: number, text: string) => void;
}
