import { TesseraError } from '../errors/errors';
import { connectHost, forkHost } from './host-link';
import { pickHost } from './host-routing';
import { socketAddress, type HostSharing, type RecycleReason, type SharedHost } from './host-sharing';
import type { SandboxPoolOptions, SandboxStats } from './pool-options';
import { ownerKey, type ComponentOwner } from './component-owner';
import { SandboxHost, type HostEvents } from './sandbox-host';

/** How often hosts are pinged; a host silent for HOST_SILENT_MS is killed and replaced. */
const PING_EVERY_MS = 500;
const HOST_SILENT_MS = 5000;
/** A host that has not started within this is killed and replaced. */
const HOST_START_MS = 15_000;
/** A host that ends before it was ready is restarted after this pause, so a broken install does not spin. */
const RESTART_PAUSE_MS = 1000;

/** The component a sandbox key (`name@version#serverHash`) belongs to; a component name holds no `@`. */
const componentOfKey = (key: string): string => key.slice(0, key.indexOf('@'));

/** What supervision asks of the pool. */
export interface SupervisionHooks {
  /** A bridge call of an execution running on a host. */
  bridge: HostEvents['bridge'];
  /** A loss of one tenant's versions of a component (lost isolate, overdue answer, host memory): counted toward their and their tenant's quarantine. */
  recordLoss(owner: ComponentOwner): void;
}

/**
 * The sandbox host processes of a pool, one per slot: started (or, on a guest front thread, connected
 * to as their owner announces them), pinged, and replaced when one dies, goes silent, loses an isolate
 * or an execution, or outgrows its memory. A host to recycle is drained (no new executions, running
 * ones finish) and killed, while its replacement already starts; when no other host takes executions
 * meanwhile (a pool of one host), one recycled for its memory or for a parked lost isolate stands in
 * for its replacement until that one is ready (`#recycle`).
 */
export class HostSupervision {
  readonly #options: SandboxPoolOptions;
  readonly #hooks: SupervisionHooks;
  /**
   * The hosts taking new executions (or starting to), one per slot. A guest's may have a hole while
   * a slot's host is not announced yet (hosts become ready in any order).
   */
  readonly #slots: Array<SandboxHost | undefined> = [];
  /** Hosts being drained before they are killed. */
  readonly #draining = new Set<SandboxHost>();
  /**
   * Per slot, a host being recycled that still takes its slot's executions while the slot's new host
   * starts, because no other host would take them: a recycle then stalls no one's renders.
   */
  readonly #standIns: Array<SandboxHost | undefined> = [];
  readonly #waitingForHost = new Set<() => void>();
  readonly #heartbeat: NodeJS.Timeout;
  readonly #hostEvents: HostEvents;
  #closing = false;
  #hostsStarted = 0;

  constructor(options: SandboxPoolOptions, hooks: SupervisionHooks) {
    this.#options = options;
    this.#hooks = hooks;
    this.#hostEvents = {
      ready: (host) => {
        const sharing = this.#options.sharing;
        const slot = this.#slots.indexOf(host);
        if (slot !== -1) this.#endStandIn(slot);
        if (sharing.role === 'owner' && slot !== -1) sharing.announce({ slot, address: host.address, pid: host.pid });
        const waiting = [...this.#waitingForHost];
        this.#waitingForHost.clear();
        for (const wake of waiting) wake();
      },
      bridge: hooks.bridge,
      isolateLost: (host, tenant, keys, stillRunning) => {
        // Every front hears of it (each keeps its own quarantine); the host's owner counts it and recycles the host.
        const components = new Set(keys.map(componentOfKey));
        for (const component of components) this.#hooks.recordLoss({ component, tenant });
        if (this.#options.sharing.role === 'guest') return;
        this.#options.events.isolateLost(tenant);
        this.#recycle(host, 'isolate-lost', stillRunning);
      },
      draining: (host) => {
        if (host.state !== 'draining') return;
        this.#draining.add(host);
        host.releaseIfIdle();
      },
      drained: (host) => host.kill(),
      pong: (host, pong) => {
        for (const [tenant, seconds] of pong.cpu) this.#options.events.cpuSpent(tenant, seconds);
        // A host holding no isolate has nothing to give back: recycling it (a limit set below a fresh
        // host's size) would only start the same again.
        if (pong.rssBytes > this.#options.hostMemoryBytes && pong.warmIsolates > 0) {
          // It counts against a component only when that one holds more than an isolate's limit there:
          // a host that grew outside its isolates' heaps is nobody's loss.
          const heaviest = pong.heaviest;
          if (heaviest && heaviest.heapBytes > this.#options.limits.memoryMb * 1024 * 1024) this.#hooks.recordLoss(heaviest);
          this.#recycle(host, 'memory');
        }
      },
      exited: (host) => this.#exited(host),
      output: (host, text) => this.#options.logHostOutput(host.pid, text),
    };
    if (options.sharing.role === 'guest') {
      for (const host of options.sharing.hosts) this.hostAnnounced(host);
    } else {
      for (let slot = 0; slot < options.hosts; slot++) this.#slots.push(this.#startHost());
    }
    this.#heartbeat = setInterval(() => this.#checkHosts(), PING_EVERY_MS).unref();
  }

  /** The ready host for a component (host-routing.ts). */
  pick(component: string): SandboxHost | undefined {
    return pickHost(this.#standIns.some(Boolean) ? this.#serving() : this.#slots, component, this.#options.ownSlot);
  }

  /** The hosts taking each slot's executions: its stand-in while its new host starts. */
  #serving(): Array<SandboxHost | undefined> {
    return this.#slots.map((host, slot) => (host?.state === 'ready' ? host : (this.#standIns[slot] ?? host)));
  }

  /** A version left the catalog (unpublished): the leases granted before no longer run it. */
  revoke(name: string, version: string): void {
    for (const host of this.#slots) if (host?.state === 'ready') host.revoke(name, version);
  }

  /** Waits for any host to be ready (all are starting, after crashes or recycles). */
  aHost(timeoutMs: number): Promise<SandboxHost> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waitingForHost.delete(wake);
        reject(new TesseraError('SANDBOX_CRASHED', 'No sandbox host became ready in time; retry the request.'));
      }, timeoutMs);
      const wake = () => {
        const host = this.#serving().find((candidate) => candidate?.state === 'ready');
        if (!host) {
          this.#waitingForHost.add(wake);
          return;
        }
        clearTimeout(timer);
        resolve(host);
      };
      this.#waitingForHost.add(wake);
    });
  }

  #startHost(): SandboxHost {
    const sharing = this.#options.sharing as Extract<HostSharing, { role: 'owner' }>;
    return new SandboxHost(forkHost(this.#options.limits, socketAddress(sharing.socketFolder, ++this.#hostsStarted)), this.#hostEvents);
  }

  /**
   * A guest's pool: the owner announced the host now in `slot` (at the start, or replacing one). The
   * host it replaces is let go once this front's executions there have ended.
   */
  hostAnnounced(announced: SharedHost): void {
    if (this.#closing) return;
    const previous = this.#slots[announced.slot];
    if (previous?.pid === announced.pid && previous.state !== 'gone') return;
    if (previous && previous.state !== 'gone') {
      previous.state = 'draining';
      this.#draining.add(previous);
      previous.releaseIfIdle();
    }
    this.#slots[announced.slot] = new SandboxHost(connectHost(announced.address, announced.pid), this.#hostEvents);
  }

  /**
   * A host to replace (it lost an execution, an isolate, or outgrew its memory): a new host takes
   * its slot now; the host drains (no new executions, running ones of every front finish) and is
   * killed once drained, or past the time limit anyway. A guest asks the owner to do it.
   *
   * A host whose lost isolate's thread is parked (V8's catastrophic failure), or that outgrew its
   * memory, still runs everything else as well as before: when no other host is ready, it takes its
   * slot's executions until its replacement is (a few hundred ms; at most the time a new host is
   * given to start), rather than every tenant's renders waiting for that. One that lost an execution is not trusted with more, and one whose lost isolate
   * still runs inside a built-in would grow under its neighbours' executions: both drain at once.
   */
  #recycle(host: SandboxHost, reason: RecycleReason, stillRunning = false): void {
    const sharing = this.#options.sharing;
    if (sharing.role === 'guest') {
      sharing.recycle(host.pid, reason);
      return;
    }
    if (this.#closing) return;
    const slot = this.#slots.indexOf(host);
    if (slot === -1) {
      // A stand-in is being replaced already; one that lost an execution, or whose lost isolate still runs, drains now.
      const standingIn = this.#standIns.indexOf(host);
      if (standingIn !== -1 && (reason === 'overdue' || stillRunning)) this.#endStandIn(standingIn);
      return;
    }
    this.#slots[slot] = this.#startHost();
    this.#options.events.hostReplaced(reason);
    const othersReady = this.#slots.some((other) => other?.state === 'ready');
    if (reason !== 'overdue' && !stillRunning && host.state === 'ready' && !othersReady) {
      this.#standIns[slot] = host;
      // No longer than a new host is given to start: replacements that never get ready (each killed
      // at that limit and started again) do not keep a host past its limits serving for good.
      setTimeout(() => this.#endStandIn(slot, host), HOST_START_MS).unref();
    } else this.#retire(host);
  }

  /** The slot's stand-in (that one only, when given) drains: its replacement is ready, or it may stand in no more. */
  #endStandIn(slot: number, only?: SandboxHost): void {
    const standIn = this.#standIns[slot];
    if (standIn === undefined || (only !== undefined && standIn !== only) || this.#closing) return;
    this.#standIns[slot] = undefined;
    this.#retire(standIn);
  }

  /** A replaced host drains, and is killed once drained or past the time limit. */
  #retire(host: SandboxHost): void {
    host.state = 'draining';
    this.#draining.add(host);
    host.drain();
    host.releaseIfIdle();
    // Executions bound to end by their time limit; past it (and a margin) the host goes anyway.
    setTimeout(() => host.kill(), this.#options.limits.timeoutMs + 1000).unref();
  }

  /** Owner: a guest asks for the host with this process id to be replaced. */
  recycleHost(pid: number, reason: RecycleReason): void {
    const host = [...this.#slots, ...this.#standIns].find((candidate) => candidate?.pid === pid);
    if (host) this.#recycle(host, reason);
  }

  #exited(host: SandboxHost): void {
    this.#draining.delete(host);
    const standingIn = this.#standIns.indexOf(host);
    if (standingIn !== -1) this.#standIns[standingIn] = undefined;
    const slot = this.#slots.indexOf(host);
    // A guest's slot is filled by the owner's next announcement.
    if (slot === -1 || this.#closing || this.#options.sharing.role === 'guest') return;
    this.#options.events.hostReplaced('exited');
    const replace = () => {
      if (!this.#closing && this.#slots[slot] === host) this.#slots[slot] = this.#startHost();
    };
    if (!host.wasReady) setTimeout(replace, RESTART_PAUSE_MS).unref();
    else replace();
  }

  #checkHosts(): void {
    const now = performance.now();
    for (const host of this.#every()) {
      if (host === undefined || host.state === 'gone') continue;
      // Only the owner watches a host's life; a guest answers what it sent.
      if (this.#options.sharing.role === 'guest') {
        this.#overdue(host, now);
        continue;
      }
      if (now - host.lastPongAt > (host.state === 'starting' ? HOST_START_MS : HOST_SILENT_MS)) {
        if (this.#slots.includes(host)) this.#options.events.hostReplaced('silent');
        host.kill();
        continue;
      }
      host.ping();
      this.#overdue(host, now);
    }
  }

  /** A host that lost an execution is recycled (whatever lost it may hold more), and the loss counts against its tenant's versions of its component. */
  #overdue(host: SandboxHost, now: number): void {
    const owners = host.answerOverdue(now);
    if (owners.length === 0) return;
    const once = new Map(owners.map((owner) => [ownerKey(owner), owner]));
    for (const owner of once.values()) this.#hooks.recordLoss(owner);
    this.#recycle(host, 'overdue');
  }

  /** The number of hosts the pool keeps (the configured `sandboxHosts`). */
  get size(): number {
    return this.#slots.length;
  }

  /** The process ids of the hosts taking executions, for operators' tooling. */
  hostProcessIds(): number[] {
    return this.#slots.flatMap((host) => (host ? [host.pid] : []));
  }

  /** Every host of the pool's: in its slots, standing in, draining. */
  #every(): Array<SandboxHost | undefined> {
    return [...this.#slots, ...this.#standIns, ...this.#draining];
  }

  stats(): SandboxStats {
    const stats: SandboxStats = { hosts: 0, warmIsolates: 0, heapBytes: 0, rssBytes: 0, busyComponents: 0 };
    for (const host of this.#every()) {
      if (host === undefined) continue;
      if (host.state === 'ready') stats.hosts++;
      if (host.state === 'gone' || !host.lastPong) continue;
      stats.warmIsolates += host.lastPong.warmIsolates;
      stats.heapBytes += host.lastPong.heapBytes;
      stats.rssBytes += host.lastPong.rssBytes;
      stats.busyComponents += host.busyCount;
    }
    return stats;
  }

  /** Stops every host at once. */
  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#heartbeat);
    const hosts = this.#every().filter((host) => host !== undefined);
    for (const host of hosts) host.kill();
    await Promise.all(hosts.map((host) => host.ended));
  }
}
