/** How many losses, within what window, refuse what, and for how long. */
export interface QuarantineRule {
  /** Losses of one component (all its versions) within the window that refuse it. */
  componentLosses: number;
  /** Losses of one tenant's components together within the window that refuse all of them. */
  tenantLosses: number;
  windowMs: number;
  forMs: number;
}

/** What a quarantine refuses: one component, or every component of one tenant. */
export type QuarantineScope = 'component' | 'tenant';

/**
 * Components that keep costing their host a recycle (an isolate V8 lost, an execution the host
 * never answered, memory past the host's limit) are refused for a while instead of being run
 * again: by component, all its versions together (a new version is no way out), and by tenant, so
 * that a tenant publishing many such components still costs a bounded number of recycles.
 */
export class Quarantine {
  readonly #rule: QuarantineRule;
  /** Recent losses, by `component` and by `tenant:` + tenant (only those that lost one are kept). */
  readonly #losses = new Map<string, number[]>();
  readonly #until = new Map<string, number>();

  constructor(rule: QuarantineRule) {
    this.#rule = rule;
  }

  /** Counts a loss; answers the scopes it has just quarantined. */
  record(component: string, tenant: string): QuarantineScope[] {
    const started: QuarantineScope[] = [];
    if (this.#count(component, this.#rule.componentLosses)) started.push('component');
    if (this.#count(`tenant:${tenant}`, this.#rule.tenantLosses)) started.push('tenant');
    return started;
  }

  /** What refuses the component now (its own losses or its tenant's), and for how many more seconds; undefined when nothing does. */
  refusal(component: string, tenant: string): { scope: QuarantineScope; seconds: number } | undefined {
    const own = this.#left(component);
    const tenants = this.#left(`tenant:${tenant}`);
    if (own === 0 && tenants === 0) return undefined;
    return tenants >= own ? { scope: 'tenant', seconds: tenants } : { scope: 'component', seconds: own };
  }

  /** The losses that start a quarantine of `scope`. */
  threshold(scope: QuarantineScope): number {
    return scope === 'component' ? this.#rule.componentLosses : this.#rule.tenantLosses;
  }

  #count(key: string, threshold: number): boolean {
    const now = performance.now();
    const recent = (this.#losses.get(key) ?? []).filter((at) => now - at < this.#rule.windowMs);
    recent.push(now);
    this.#losses.set(key, recent);
    if (recent.length < threshold) return false;
    this.#until.set(key, now + this.#rule.forMs);
    this.#losses.delete(key);
    return true;
  }

  #left(key: string): number {
    const until = this.#until.get(key);
    if (until === undefined) return 0;
    const left = until - performance.now();
    if (left > 0) return Math.ceil(left / 1000);
    this.#until.delete(key);
    return 0;
  }
}
