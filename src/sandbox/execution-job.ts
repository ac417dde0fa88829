import type { ComponentCode, BridgeOp, NestedPlan, NestedRun, TailReport } from './protocol';
import type { RequestBudget } from './request-budget';
import type { SandboxHost } from './sandbox-host';

/** An execution that asked for a nested render: its children learn from it, and run on its host first. */
export interface Caller {
  readonly key: string;
  readonly host: SandboxHost;
}

/** A child an execution's component asked for before, resolved by the front: what a lease of it needs. */
export interface LeasableChild {
  plan: NestedPlan;
  /** The tenant that published it. */
  tenant: string;
}

/** One execution to run. */
export interface ExecutionJob {
  /** Identifies the component version and its code: `name@version#serverHash`. */
  key: string;
  /** The component's name: executions of one component share its admission gate. */
  component: string;
  /** The tenant that published the version (its failures and quarantines count against it). */
  tenant: string;
  plugins: readonly string[];
  loadCode: () => Promise<ComponentCode>;
  /** JSON of the execution input (see workers/prelude/build-ctx.ts). */
  input: string;
  /** 0 for a request from outside; each nested render adds one. */
  depth: number;
  budget: RequestBudget;
  /** Children its component asked for before: those admitted now go with it as a lease, for its host to run itself. */
  children?: readonly LeasableChild[];
  /** Told of each nested render its host ran itself under the lease (`child`: its index in `children`). */
  ranNested?: (child: number, run: NestedRun) => void;
  /** A nested render's caller: its host is tried first, so the child is warm there for the caller's next leases. */
  caller?: Caller;
  /** Set once charged when its request had less time left than the execution's own limit: a timeout is then the request's, not the component's. */
  cutShort?: boolean;
  /** A tail that may see it in full is open: its host reports its CPU time, console lines and exception (`report`). */
  tail?: true;
  /** Set with its answer, for a job with `tail`. */
  report?: TailReport;
}

/** A nested render or plugin call made from inside an isolate, for the front to answer. */
export interface BridgeRequest {
  op: BridgeOp;
  payload: string;
  /** The depth of the execution that made the call. */
  depth: number;
  budget: RequestBudget;
  /** The execution that made the call (unknown for a child its host ran under a lease): its sandbox key, and its host. */
  caller?: Caller;
  /** The tenant of the component whose code made the call. */
  callerTenant: string;
  /** That component's name, when known (not for a child its host ran under a lease). */
  callerComponent?: string;
}
