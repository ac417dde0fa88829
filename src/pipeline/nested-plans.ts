import type { Catalog } from '../catalog/catalog';
import type { ComponentVersion } from '../catalog/component-version';
import { tenantOf } from '../catalog/tenant-of';
import type { RegistryConfig } from '../config/config';
import type { LeasableChild } from '../sandbox/execution-job';
import { templateTypeInfo } from '../templates/template-types';

/** The most children leased with one execution: a component asking for more gets the rest through the front. */
const MAX_CHILDREN = 4;
/** Components whose children are remembered; past it the memory starts over. */
const MAX_CALLERS = 10_000;
/**
 * The next plan's id: a host connection is sent a plan once and named it by id afterwards
 * (src/sandbox/leased-plans.ts), so ids are unique within the thread, whichever registry made them.
 */
let nextPlanId = 1;

/** A child as the pipeline leases it: the version behind the plan, for its metrics. */
export interface PlannedChild extends LeasableChild {
  version: ComponentVersion;
}

/** A nested render a component asked for, and its plan while the catalog resolves the call to the same version. */
interface Call {
  readonly name: string;
  readonly requested: string;
  resolved?: ComponentVersion;
  child?: PlannedChild;
}

/**
 * Which children each component version asks for (learnt from its nested renders that went through
 * the front), resolved again at each execution: the children leased with it (protocol.ts,
 * NestedLease), for its host to run those warm beside it without a round trip through the front.
 */
export class NestedPlans {
  readonly #catalog: Catalog;
  readonly #config: RegistryConfig;
  /** Calls by the sandbox key of the version that made them. */
  readonly #calls = new Map<string, Call[]>();

  constructor(catalog: Catalog, config: RegistryConfig) {
    this.#catalog = catalog;
    this.#config = config;
  }

  /** `caller` (a sandbox key) asked for `name` at `requested`, rendered through the front. */
  learn(caller: string, name: string, requested: string): void {
    // On a development registry a child's console is relayed into its html by the front.
    if (this.#config.development) return;
    let calls = this.#calls.get(caller);
    if (!calls) {
      if (this.#calls.size >= MAX_CALLERS) this.#calls.clear();
      this.#calls.set(caller, (calls = []));
    }
    if (calls.length < MAX_CHILDREN && !calls.some((call) => call.name === name && call.requested === requested)) calls.push({ name, requested });
  }

  /** The children to lease with an execution of `key` at `depth`; undefined when there are none. */
  childrenOf(key: string, depth: number): PlannedChild[] | undefined {
    const calls = this.#calls.get(key);
    if (!calls || depth + 1 > this.#config.limits.nestingDepth) return undefined;
    let children: PlannedChild[] | undefined;
    for (const call of calls) {
      let resolved: ComponentVersion;
      try {
        resolved = this.#catalog.resolve(call.name, call.requested);
      } catch {
        continue; // unpublished, or no longer resolvable: the front answers it
      }
      if (resolved !== call.resolved) {
        call.resolved = resolved;
        call.child = this.#plan(resolved, call.requested);
      }
      if (call.child) (children ??= []).push(call.child);
    }
    return children;
  }

  /** A version's plan; none when its render needs the front (plugins, a template type this registry lacks). */
  #plan(version: ComponentVersion, requested: string): PlannedChild | undefined {
    const oc = version.descriptor.oc;
    if (!templateTypeInfo(version.templateType) || (oc.plugins ?? []).length > 0) return undefined;
    return {
      version,
      tenant: tenantOf(version, this.#config.tenants.default),
      plan: {
        id: nextPlanId++,
        name: version.name,
        requested,
        version: version.version,
        key: version.sandboxKey,
        component: version.name,
        templateKey: version.templateKey,
        container: oc.container === true,
        renderInfo: oc.renderInfo !== false,
        parameters: oc.parameters ?? {},
        staticBaseUrl: this.#config.staticBaseUrl,
        timeoutMs: this.#config.limits.executionTimeoutMs,
      },
    };
  }
}
