import { ownerKey, type ComponentOwner } from './component-owner';

/** How many losses, within what window, refuse what, and for how long. */
export interface QuarantineRule {
  /** Losses of one component (all its versions) within the window that refuse it. */
  componentLosses: number;
  /** Losses of one tenant's components together within the window that refuse all of them. */
  tenantLosses: number;
  windowMs: number;
  forMs: number;
}

/** What a quarantine refuses: one tenant's versions of a component, or every component of one tenant. */
export type QuarantineScope = 'component' | 'tenant';

/** Recent losses and quarantines of one scope, by name (only names that lost something are kept). */
class LossCounter {
  readonly #threshold: number;
  readonly #windowMs: number;
  readonly #forMs: number;
  readonly #losses = new Map<string, number[]>();
  readonly #until = new Map<string, number>();

  constructor(threshold: number, windowMs: number, forMs: number) {
    this.#threshold = threshold;
    this.#windowMs = windowMs;
    this.#forMs = forMs;
  }

  get threshold(): number {
    return this.#threshold;
  }

  /** Whether anything is refused now or was lately (the render path asks before making a key). */
  get refusing(): boolean {
    return this.#until.size > 0;
  }

  /** Counts a loss; answers whether it has just started a quarantine. */
  record(name: string): boolean {
    const now = performance.now();
    const recent = (this.#losses.get(name) ?? []).filter((at) => now - at < this.#windowMs);
    recent.push(now);
    this.#losses.set(name, recent);
    if (recent.length < this.#threshold) return false;
    this.#until.set(name, now + this.#forMs);
    this.#losses.delete(name);
    return true;
  }

  /** Seconds `name` stays refused, or 0 (a lookup of an empty map when nothing is quarantined: the render path's case). */
  secondsLeft(name: string): number {
    if (this.#until.size === 0) return 0;
    const until = this.#until.get(name);
    if (until === undefined) return 0;
    const left = until - performance.now();
    if (left > 0) return Math.ceil(left / 1000);
    this.#until.delete(name);
    return 0;
  }
}

/**
 * Components that keep costing their host a recycle (an isolate V8 lost, an execution the host
 * never answered, memory past the host's limit) are refused for a while instead of being run
 * again: by component, all its versions of one tenant together (a new version is no way out; a
 * moved name's other owner is not refused for them), and by tenant, so that a tenant publishing many
 * such components still costs a bounded number of recycles.
 */
export class Quarantine {
  readonly #component: LossCounter;
  readonly #tenant: LossCounter;

  constructor(rule: QuarantineRule) {
    this.#component = new LossCounter(rule.componentLosses, rule.windowMs, rule.forMs);
    this.#tenant = new LossCounter(rule.tenantLosses, rule.windowMs, rule.forMs);
  }

  /** Counts a loss; answers the scopes it has just quarantined. */
  record({ component, tenant }: ComponentOwner): QuarantineScope[] {
    const started: QuarantineScope[] = [];
    if (this.#component.record(ownerKey({ component, tenant }))) started.push('component');
    if (this.#tenant.record(tenant)) started.push('tenant');
    return started;
  }

  /** What refuses the component now (its own losses or its tenant's), and for how many more seconds; undefined when nothing does. */
  refusal(component: string, tenant: string): { scope: QuarantineScope; seconds: number } | undefined {
    // Nothing quarantined (the render path's case): no key is made.
    const own = this.#component.refusing ? this.#component.secondsLeft(ownerKey({ component, tenant })) : 0;
    const tenants = this.#tenant.secondsLeft(tenant);
    if (own === 0 && tenants === 0) return undefined;
    return tenants >= own ? { scope: 'tenant', seconds: tenants } : { scope: 'component', seconds: own };
  }

  /** The losses that start a quarantine of `scope`. */
  threshold(scope: QuarantineScope): number {
    return scope === 'component' ? this.#component.threshold : this.#tenant.threshold;
  }
}
