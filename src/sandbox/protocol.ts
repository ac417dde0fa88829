/**
 * What crosses between a front thread and a sandbox host process. Messages travel in arrays, one
 * array per event-loop turn each way (see outbox.ts), with V8 serialization: executions over each
 * front thread's connection to the host's socket (framed-socket.ts), the host's life (`ready`,
 * pings, drain) over Node's IPC channel with the front that started it (its owner). Values are
 * plain data: strings of JSON for what tenant code produced or reads.
 */

import type { ParameterDefinition } from '../descriptor/descriptor-types';

export interface SandboxLimits {
  memoryMb: number;
  timeoutMs: number;
  /** Largest result (JSON characters) allowed to leave an isolate. */
  maxResultChars: number;
  /** Warm component versions (contexts) a host keeps before discarding the least recently used. */
  maxWarmIsolates: number;
  /** Heap bytes the isolates of one host may hold together before the least recently used versions go. */
  warmIsolateBytes: number;
  /** The most components one `renderComponents` call takes (the batch limit). */
  maxNestedBatch: number;
  /** The most nested renders one execution may ask for (the request's execution budget). */
  maxNestedRenders: number;
  /** Resident memory a host never passes: past it the host ends at once (its owner starts another). */
  hostMemoryBytes: number;
}

/** What every execution of one version reads and no request changes: installed once in its context. */
export interface VersionConstants {
  name: string;
  /** What its cookies are named under (src/catalog/component-version.ts): their bytes in the jar count it. */
  cookieScope: string;
  version: string;
  /** `ctx.env`: the version's env file under the registry's environment. */
  env: Record<string, string>;
  /** `ctx.templates`: the template types this registry renders. */
  templates: unknown[];
  /** The plugins the version declares: the only ones its context may call. */
  plugins: string[];
  /** A development registry: server logic that asks for it has its console relayed to the browser. */
  relayConsole: boolean;
}

/** The code of one component version, sent to a host only when it lacks the version's warm context. */
export interface ComponentCode {
  template: string;
  templateKey: string;
  server?: string;
  constants: VersionConstants;
  /** The tenant the version belongs to: a host over its byte budget evicts the versions of the tenant holding the most. */
  tenant: string;
}

/** The front asks a host to run one execution. */
export interface ExecuteMessage {
  t: 'execute';
  /** Unique per host; every later message about the execution names it. */
  id: number;
  /** Identifies the component version and its code: `name@version#serverHash`. */
  key: string;
  /** The component's name: its versions share the component's isolates, never another component's. */
  component: string;
  code?: ComponentCode;
  /** JSON of the execution input (see workers/prelude/build-ctx.ts). */
  input: string;
  /** Its own limit: the time left of its root request's budget, at most the execution time limit. */
  timeoutMs: number;
  /** Run for another tenant's request (a nested render of this tenant's component): its caller's cancel must not discard the isolate. */
  foreign?: true;
  /** Nested renders the host may run itself, warm beside it, without asking the front (see NestedLease). */
  lease?: NestedLease;
  /** A tail that may see it is open: the isolate keeps its console lines and exception, and the host its CPU time (TailReport). */
  tail?: true;
}

/** What a tail gets of an execution the front flagged, with its result. */
export interface TailReport {
  /** CPU time of the isolate's entries it ran in, each shared out between the executions that entered together. */
  cpuMs: number;
  /** The console lines the isolate sent as they were logged (workers/tail-lines.ts). */
  console?: Array<{ level: string; message: string }>;
  /** More lines were logged than kept: how many, `captured` says when the execution answered. */
  cut?: true;
  /** JSON the isolate made when the execution answered (workers/prelude/tail-capture.ts): how many lines were dropped, an uncaught exception. */
  captured?: string;
}

/**
 * Nested renders the front admitted ahead for one execution: each plan is a child its component's
 * earlier executions asked for (a name and a version expression as written), resolved by the front,
 * with a slot of the child's gate, of the paying tenant's share and of the request's budget already
 * held: a child of the paying tenant only, so never one its caller's cancel may not discard. The host runs a call matching a plan itself when the child's version is warm there and its
 * parameters are valid; anything else (a call no plan matches, a plan used, invalid parameters, a
 * cold child) goes to the front as before. What ran is reported with the execution's result.
 *
 * A plan crosses each connection once (leased-plans.ts): whole the first time, with the id the front
 * gave it, and by that id alone afterwards, from the table the host keeps of the connection's plans.
 * Both sides bound theirs alike: when the front's record is full it starts over and sets `forget`,
 * and the host empties its table before reading the lease's plans (messages on a connection keep
 * their order). An id the host does not hold matches no call: the front answers those calls.
 */
export interface NestedLease {
  /** In the lease's order (a run names its plan by its index here): a plan whole, or the id of one this connection was sent before. */
  plans: Array<NestedPlan | number>;
  /** The host empties its table of this connection's plans first. */
  forget?: true;
  /** Characters the children's answers may bring in all (the request's nested-answer budget left). */
  maxChars: number;
  /**
   * The request's whole bound on them, which the sentence refusing a child's answer past `maxChars`
   * names: the host writes it as the front does (request-budget.ts, nestedCharsRefusal).
   */
  boundChars: number;
}

/** A child the front resolved for a lease: what the host needs to render it as the front would. */
export interface NestedPlan {
  /** Given when the plan is made, unique within its front thread; a plan with an id never changes. */
  id: number;
  /** The call it answers: the name and version expression as the parent writes them. */
  name: string;
  requested: string;
  /** The version they resolve to, its sandbox key and its component's name. */
  version: string;
  key: string;
  component: string;
  templateKey: string;
  /** `oc.container` and `oc.renderInfo` of its descriptor (how its html is wrapped). */
  container: boolean;
  renderInfo: boolean;
  parameters: Record<string, ParameterDefinition>;
  /** Where its static files are served from, when not under the call's base URL. */
  staticBaseUrl?: string;
  /** Its own time limit (the execution time limit). */
  timeoutMs: number;
}

/** A nested render a host ran itself under a lease: which plan, how long it took, how it ended, its answer's size. */
export interface NestedRun {
  /** Its index in the lease's plans. */
  plan: number;
  ms: number;
  /** 'ok', or the error code it ended with. */
  outcome: string;
  chars: number;
  /** Its time limit was what its root request had left, less than its own: a timeout is the request's. */
  short?: true;
}

/** The execution's root request was answered: nothing of it may run any more. */
export interface CancelMessage {
  t: 'cancel';
  id: number;
}

/** The answer to a bridge call (a nested render or a plugin) an isolate made. */
export interface BridgeAnswerMessage {
  t: 'bridge-answer';
  call: number;
  answer: string;
}

/** Liveness and figures: the host answers with a `pong`. */
export interface PingMessage {
  t: 'ping';
  id: number;
}

/**
 * From the owner only: the host is being replaced. It tells every front (`draining`), and answers
 * `drained` once every front has let go of it (closed its connection), and the owner ends it then.
 */
export interface DrainMessage {
  t: 'drain';
}

/** A version left the catalog (unpublished): no lease runs it any more, those granted before included. */
export interface RevokeMessage {
  t: 'revoke';
  name: string;
  version: string;
}

export type FrontMessage = ExecuteMessage | CancelMessage | BridgeAnswerMessage | PingMessage | DrainMessage | RevokeMessage;

/** The host's answer to an execution: the isolate's result JSON, or NEED_CODE. */
export interface ResultMessage {
  t: 'result';
  id: number;
  answer: string;
  /** The nested renders it ran itself under the execution's lease. */
  nested?: NestedRun[];
  /** For a flagged execution (ExecuteMessage.tail). */
  tail?: TailReport;
}

/** An isolate asks the front for a nested render or a plugin call, on behalf of one of its executions. */
export interface BridgeCallMessage {
  t: 'bridge';
  call: number;
  /** The execution that made the call; the front checks it runs on this host. */
  execution: number;
  op: BridgeOp;
  payload: string;
  /** 1 for a call of a child the host ran itself under the execution's lease: one level deeper. */
  deeper?: 1;
  /** With the first nested render a leased execution asks of the front: its lease ends (see LeaseEnd). */
  leaseEnd?: LeaseEnd;
}

/**
 * A lease ended before its execution did, because the execution asked the front for a nested render
 * the lease did not cover: the front then admits and counts that render as it would without a lease.
 * So what the lease held and never used is given back first, and the answers its children brought
 * are counted first; the host sends the call once those running have answered, and runs no child
 * under the lease after it.
 */
export interface LeaseEnd {
  /** Indexes of the lease's plans never used: their slots and executions go back to the request. */
  returned: number[];
  /** Characters of the answers the lease's children brought so far (all of them: none runs now). */
  chars: number;
}

export type BridgeOp = 'render' | 'plugin';

export interface PongMessage {
  t: 'pong';
  id: number;
  warmIsolates: number;
  heapBytes: number;
  /** The host process's resident memory. */
  rssBytes: number;
  /**
   * The component whose isolates held the most heap at the last measure, with the tenant whose versions
   * they run, and how much (what a memory recycle counts against: a moved name's two owners apart).
   */
  heaviest?: { component: string; tenant: string; heapBytes: number };
  /** CPU seconds each tenant's isolates spent since the last pong (by the tenant whose versions an isolate runs: a moved name's two owners apart). */
  cpu: Array<[tenant: string, seconds: number]>;
}

/**
 * The components whose isolate has been running code without a break for a while (a loop, a long
 * render), sent when the list changes: their next executions go to another host if one is free of them.
 */
export interface BusyMessage {
  t: 'busy';
  components: string[];
}

/** V8 lost control of an isolate, running these versions of this tenant's: the host must be drained and recycled. */
export interface IsolateLostMessage {
  t: 'isolate-lost';
  /** The tenant whose versions the isolate ran (a moved name's former owner's versions are not the new owner's). */
  tenant: string;
  keys: string[];
  /** Its thread is still at work inside a built-in, taking CPU and perhaps memory (a catastrophic failure parks it instead). */
  stillRunning?: true;
}

/** Sent to the owner once the host listens on its socket, and to each front once it has connected. */
export interface ReadyMessage {
  t: 'ready';
}

/**
 * To every front, once the host drains: the front sends it nothing more, and closes its connection
 * once its executions there are answered.
 */
export interface DrainingMessage {
  t: 'draining';
}

/**
 * A draining host's answer to an execution a front sent before it heard of the drain: the front runs
 * it on another host. A message of its own, so that nothing an isolate answers can be taken for it.
 */
export interface ElsewhereMessage {
  t: 'elsewhere';
  id: number;
}

/** To the owner, after a `drain`: every front has closed its connection; nothing runs on the host. */
export interface DrainedMessage {
  t: 'drained';
}

export type HostMessage =
  | ResultMessage
  | BridgeCallMessage
  | PongMessage
  | BusyMessage
  | IsolateLostMessage
  | ReadyMessage
  | DrainingMessage
  | ElsewhereMessage
  | DrainedMessage;

/** A host's answer to an execution when it must first be sent the code. */
export const NEED_CODE = '"need-code"';

/** The largest JSON payload of a bridge call (nested-render or plugin arguments). */
export const MAX_BRIDGE_PAYLOAD_CHARS = 64 * 1024;
