import { AggregatorRegistry, Counter, Gauge, Registry, collectDefaultMetrics, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { ERRORS } from '../errors/errors';
import { CounterTally, HistogramTally, type CounterCell, type HistogramCell } from './tallies';
import type { SandboxEvents, SandboxStats } from '../sandbox/pool-options';
import type { SandboxPool } from '../sandbox/sandbox-pool';

/** One registry's metrics as prom-client hands them over (`getMetricsAsJSON`): what front threads exchange. */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** Latency buckets, in seconds: from a warm render (a millisecond) to the default time limit and past it. */
const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** How often the event loop's delay is sampled (`nodejs_eventloop_lag_*`): a stall shorter than this may go unseen. */
const EVENT_LOOP_SAMPLE_MS = 100;

/** What the metrics need of a published component version; never a name taken from a request. */
export interface PublishedVersion {
  name: string;
  version: string;
}

/** Per version: its latency cell, its tenant, and its outcome cells as they are first used. */
interface ExecutionCells {
  seconds: HistogramCell;
  tenant: string;
  outcomes: Record<string, CounterCell>;
}

/**
 * The registry's metrics, in a prom-client `Registry` of its own (not the global default), so that
 * several registries in one process keep separate figures. Every label value is bounded: route
 * patterns, status codes, error codes, and the names and versions of published components only.
 * docs/reference/metrics.md documents each one.
 */
export class RegistryMetrics {
  readonly registry = new Registry();

  readonly #httpRequests = new CounterTally({
    name: 'tessera_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly #httpSeconds = new HistogramTally({
    name: 'tessera_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern.',
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });

  readonly #renders = new CounterTally({
    name: 'tessera_renders_total',
    help: 'Executions of a component version in the sandbox, by outcome: ok or the error code, and by the tenant that published it.',
    labelNames: ['component', 'version', 'tenant', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly #executionSeconds = new HistogramTally({
    name: 'tessera_execution_duration_seconds',
    help: 'Time from handing an execution to the sandbox pool to its answer (queueing included), by component.',
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });

  readonly #timeouts = new Counter({
    name: 'tessera_execution_timeouts_total',
    help: 'Executions stopped by the execution time limit (EXECUTION_TIMEOUT), by component and tenant.',
    labelNames: ['component', 'tenant'] as const,
    registers: [this.registry],
  });

  readonly #nestedRenders = new Counter({
    name: 'tessera_nested_renders_total',
    help: "Nested renders by the way they went: `host` when the parent's sandbox host ran the child itself (a lease), `front` when the call went through the front.",
    labelNames: ['via'] as const,
    registers: [this.registry],
  });
  readonly #nestedViaHost = this.#nestedRenders.labels('host');
  readonly #nestedViaFront = this.#nestedRenders.labels('front');

  readonly #memoryKills = new Counter({
    name: 'tessera_memory_limit_kills_total',
    help: 'Executions ended by the sandbox memory limit or refused for a result too large (MEMORY_LIMIT_EXCEEDED), by component and tenant.',
    labelNames: ['component', 'tenant'] as const,
    registers: [this.registry],
  });

  readonly #hostRestarts = new Counter({
    name: 'tessera_sandbox_host_restarts_total',
    help: 'Sandbox host processes replaced, by reason: exited, silent, overdue (an execution left unanswered past its time limit), isolate-lost (recycled after V8 lost an isolate), memory (recycled past its memory limit).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly #isolatesLost = new Counter({
    name: 'tessera_sandbox_isolates_lost_total',
    help: 'Isolates V8 lost control of (a catastrophic out-of-memory, a built-in that could not be stopped), by the tenant of the component; each costs its host a recycle, which frees the memory.',
    labelNames: ['tenant'] as const,
    registers: [this.registry],
  });

  readonly #tenantCpu = new Counter({
    name: 'tessera_tenant_cpu_seconds_total',
    help: "CPU time of each tenant's isolates, reported by the sandbox hosts every half second.",
    labelNames: ['tenant'] as const,
    registers: [this.registry],
  });

  readonly #quarantines = new Counter({
    name: 'tessera_sandbox_quarantines_total',
    help: 'Quarantines started after repeated losses (lost isolates, overdue answers, host memory), by tenant and scope: component (all its versions) or tenant (all its components).',
    labelNames: ['tenant', 'scope'] as const,
    registers: [this.registry],
  });

  /** Handed to the sandbox pool, which reports these as they happen. */
  readonly sandboxEvents: SandboxEvents = {
    hostReplaced: (reason) => this.#hostRestarts.inc({ reason }),
    isolateLost: (tenant) => this.#isolatesLost.inc({ tenant }),
    quarantined: (tenant, scope) => this.#quarantines.inc({ tenant, scope }),
    cpuSpent: (tenant, seconds) => this.#tenantCpu.inc({ tenant }, seconds),
  };

  /** The cells of each published version's executions, found once per version object. */
  readonly #cellsOf = new WeakMap<PublishedVersion, ExecutionCells>();

  #executionCells(component: PublishedVersion, tenant: string): ExecutionCells {
    let cells = this.#cellsOf.get(component);
    if (cells === undefined) {
      cells = { seconds: this.#executionSeconds.cell({ component: component.name }), tenant, outcomes: Object.create(null) };
      this.#cellsOf.set(component, cells);
    }
    return cells;
  }

  /** The metrics of the registry's other front threads, when it has some. */
  #others: (() => Promise<MetricsJson[]>) | undefined;

  /** `processMetrics`: Node's figures of the process (memory, CPU), which one front thread reports for all. */
  constructor(options: { processMetrics: boolean } = { processMetrics: true }) {
    // Not prom-client's 10 ms: that timer was most of an idle registry's wake-ups.
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  }

  /** Answers `/metrics` with this front's figures summed with the other front threads'. */
  sumWith(others: () => Promise<MetricsJson[]>): void {
    this.#others = others;
  }

  /** The Prometheus text of every front thread's metrics: counts summed; figures about the shared hosts and storage taken once. */
  async exposition(): Promise<string> {
    if (!this.#others) return this.registry.metrics();
    const all = await Promise.all([this.registry.getMetricsAsJSON(), this.#others()]);
    return AggregatorRegistry.aggregate([all[0], ...all[1]]).metrics();
  }

  /** Gauges read from the pool at each scrape (the hosts' latest reports). */
  observePool(pool: SandboxPool): void {
    new Gauge({
      name: 'tessera_sandbox_queue_depth',
      aggregator: 'sum',
      help: 'Executions waiting for a slot: behind their component limit or the pool limit.',
      registers: [this.registry],
      collect() {
        this.set(pool.queueSize);
      },
    });
    new Gauge({
      name: 'tessera_sandbox_tenant_slots',
      aggregator: 'sum',
      help: "Execution slots each tenant holds now; a request's nested renders count as its root component's tenant's.",
      labelNames: ['tenant'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [tenant, slots] of pool.slotsByTenant()) this.set({ tenant }, slots);
      },
    });
    const fromHosts: Array<[string, string, keyof SandboxStats]> = [
      ['tessera_sandbox_hosts', 'Sandbox host processes started and ready.', 'hosts'],
      [
        'tessera_sandbox_warm_isolates',
        'Component versions with a warm isolate, summed over the hosts (a version warm in two hosts counts twice).',
        'warmIsolates',
      ],
      ['tessera_sandbox_isolate_heap_bytes', 'Heap used by the warm isolates (external allocations included), summed over the hosts.', 'heapBytes'],
      ['tessera_sandbox_host_resident_bytes', 'Resident memory of the sandbox host processes, summed.', 'rssBytes'],
      [
        'tessera_sandbox_busy_components',
        'Components whose isolate has been running code without a break for 100 ms or more (a loop, a long render), summed over the hosts: their next executions go to other hosts.',
        'busyComponents',
      ],
    ];
    for (const [name, help, figure] of fromHosts) {
      new Gauge({
        name,
        help,
        // Every front thread sees the same hosts; only the owner of the hosts hears their reports.
        aggregator: 'max',
        registers: [this.registry],
        collect() {
          this.set(pool.stats()[figure]);
        },
      });
    }
  }

  /** Counts and times the answers of one route pattern (or `unmatched`): `record(method, status, seconds)`. */
  httpRoute(route: string): (method: string, status: number, seconds: number) => void {
    const byMethod: Record<string, { seconds: HistogramCell; byStatus: Record<number, CounterCell> }> = Object.create(null);
    return (method, status, seconds) => {
      let cells = byMethod[method];
      if (cells === undefined) byMethod[method] = cells = { seconds: this.#httpSeconds.cell({ method, route }), byStatus: Object.create(null) };
      (cells.byStatus[status] ??= this.#httpRequests.cell({ method, route, status: String(status) })).pending++;
      this.#httpSeconds.observe(cells.seconds, seconds);
    };
  }

  /**
   * Times an execution from now: the function it answers counts it when it ends, by its outcome ('ok',
   * or the code of its failure or error). Called from the render path's one reaction to the answer,
   * not chained on the answer's promise itself: one promise fewer per execution.
   */
  executionTimer(component: PublishedVersion, tenant: string, job?: { cutShort?: boolean }): (outcome: string) => void {
    const started = performance.now();
    return (outcome) => this.recordExecution(component, tenant, (performance.now() - started) / 1000, outcome, job?.cutShort !== true);
  }

  /** A nested render started, by its parent's host itself or through the front. */
  nestedRendered(via: 'host' | 'front'): void {
    (via === 'host' ? this.#nestedViaHost : this.#nestedViaFront).inc();
  }

  /**
   * One execution of `component` for `tenant` that took `seconds` and ended with `outcome` ('ok' or an
   * error code). `ownLimit`: it had its own full time limit; a timeout of one its caller's request cut
   * short is the caller's (decisions §13), never counted as the component's.
   */
  recordExecution(component: PublishedVersion, tenant: string, seconds: number, outcome: string, ownLimit = true): void {
    // A code that is not the registry's (whatever a sandbox's answer carried) counts as GENERIC_ERROR: labels stay bounded.
    if (outcome !== 'ok' && !Object.hasOwn(ERRORS, outcome)) outcome = 'GENERIC_ERROR';
    const cells = this.#executionCells(component, tenant);
    this.#executionSeconds.observe(cells.seconds, seconds);
    (cells.outcomes[outcome] ??= this.#renders.cell({ component: component.name, version: component.version, tenant: cells.tenant, outcome })).pending++;
    if (outcome === 'EXECUTION_TIMEOUT' && ownLimit) this.#timeouts.inc({ component: component.name, tenant: cells.tenant });
    if (outcome === 'MEMORY_LIMIT_EXCEEDED') this.#memoryKills.inc({ component: component.name, tenant: cells.tenant });
  }
}
