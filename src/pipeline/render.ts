import type { Catalog } from '../catalog/catalog';
import type { ComponentVersion } from '../catalog/component-version';
import type { RegistryConfig } from '../config/config';
import { isErrorCode, TesseraError } from '../errors/errors';
import type { RegistryMetrics } from '../metrics/registry-metrics';
import { RequestBudget, type BatchAllowance, type RequestLimits } from '../sandbox/request-budget';
import type { ComponentCode } from '../sandbox/protocol';
import type { Caller, ExecutionJob } from '../sandbox/execution-job';
import type { SandboxPool } from '../sandbox/sandbox-pool';
import { tenantOf } from '../catalog/tenant-of';
import { TEMPLATE_TYPES, templateTypeInfo } from '../templates/template-types';
import { buildHref } from './build-href';
import type { RequestHeaders } from './call-values';
import { cookiesOfOthers, scopedCookieName, withoutCookie } from './component-cookies';
import { executionInput, staticPathOf, type BatchInputParts } from './execution-input';
import { consoleRelayScript, type ConsoleLine } from './console-relay';
import { NestedPlans } from './nested-plans';
import type { RenderMode } from './render-mode';
import { checkedFailure, failureMessage, type SandboxFailure } from './sandbox-failure';
import type { BridgeLog } from './nested-render-log';
import { wrapHtml } from './wrap-html';
import type { TailHub } from '../tail/tail-hub';
import { LastErrors } from '../tail/last-errors';
import { noteFailure, noteNestedFailure, noteRejection } from './last-error-recording';
import { recordForTails, tailSight, unleasedWhenWatched } from './tail-recording';
import { SourceMapFrames } from '../tail/source-map-frames';

export interface RenderRequest {
  name: string;
  /** Version expression as requested; '' for the latest. */
  version: string;
  parameters: Record<string, unknown>;
  headers: RequestHeaders;
  mode: RenderMode;
  /** 0 for a request from outside; each nested render adds one. */
  depth: number;
  /** Public base URL ending with `/`. */
  baseUrl: string;
  omitHref?: boolean;
  /** Set for `POST /~actions/:action/…`: runs that action instead of the handler. */
  action?: string;
  /** What the request from outside may still spend; a nested render carries its root's. */
  budget?: RequestBudget;
  /** Template types an oc-client declares it can render (its `templates` header); others render on the server. */
  clientTemplates?: string[];
  /** Id of the HTTP request this render serves (a nested render: of its root request), for log lines. */
  requestId?: string;
  /** The allowance of the batch this request is an item of: what its items' answers may bring through the front together. */
  batch?: BatchAllowance;
  /** A batch item's: the parts of execution inputs its batch's items share, as they share its headers (execution-input.ts). */
  inputParts?: BatchInputParts;
  /** Registers what to cancel when the client of a request from outside goes away unanswered. */
  onAbandoned?: (cancel: () => void) => void;
  /** A nested render: the execution that asked for it, when known. */
  caller?: Caller;
  /** A nested render: the tenant of the component that asked for it. */
  callerTenant?: string;
  /** A nested render: the name of the component that asked for it, when known. */
  callerComponent?: string;
}

export interface Cookie {
  name: string;
  value: string;
  options: Record<string, unknown>;
}

export interface RenderResult {
  body: Record<string, unknown>;
  /** Headers and cookies the component's server logic set. */
  headers: Record<string, string>;
  cookies: Cookie[];
}

type SandboxAnswer =
  | {
      ok: true;
      html?: string;
      data?: unknown;
      empty?: boolean;
      noModel?: boolean;
      headers: Record<string, string>;
      cookies: Cookie[];
      /** What the server logic logged, on a development registry when it asked for the development console. */
      console?: ConsoleLine[];
    }
  | SandboxFailure;

const TEMPLATES = TEMPLATE_TYPES.map(({ type, version }) => ({ type, version, externals: [] }));

/**
 * The one render function behind GET, batch items, actions and nested renders. Pure of HTTP:
 * a request in, a response body (or a TesseraError) out.
 */
export class RenderPipeline {
  readonly #catalog: Catalog;
  readonly #pool: SandboxPool;
  readonly #config: RegistryConfig;
  readonly #metrics: RegistryMetrics;
  readonly #nested: NestedPlans;
  /** Where the nested renders a host ran beside their parent are logged, as the front logs those it answers. */
  readonly #log: BridgeLog;
  /** The tails of this front: an execution a tail may see is recorded for it (src/tail/). */
  readonly #tails: TailHub | undefined;
  /** Each component's last failures on this front, for its page (filled on the failure path only). */
  readonly lastErrors: LastErrors;
  /** Maps the frames of a watched execution's exception to its source files (a thread made on first use). */
  readonly #sourceMaps = new SourceMapFrames();
  /** What each request from outside may spend, read from the configuration once: every request's budget shares it. */
  readonly #requestLimits: RequestLimits;

  constructor(catalog: Catalog, pool: SandboxPool, config: RegistryConfig, metrics: RegistryMetrics, log: BridgeLog = { failed: () => {} }, tails?: TailHub, lastErrors = new LastErrors()) {
    this.#catalog = catalog;
    this.#tails = tails;
    this.lastErrors = lastErrors;
    this.#pool = pool;
    this.#config = config;
    this.#requestLimits = requestLimitsOf(config);
    this.#metrics = metrics;
    this.#log = log;
    this.#nested = new NestedPlans(catalog, config);
  }

  /** Ends what it started besides the sandbox pool (the source map thread). */
  close(): Promise<void> {
    return this.#sourceMaps.close();
  }

  /**
   * Renders a request from outside (it gets a budget, closed when it is answered, which cancels any
   * nested execution still running for it) or a nested render (it spends its root's budget).
   */
  render(request: RenderRequest): Promise<RenderResult> {
    if (request.budget) return this.#render(request, request.budget);
    const budget = new RequestBudget(this.#requestLimits, request.requestId, request.batch);
    // Kept as sent, read only if a tail records one of the request's executions.
    budget.traceparent = request.headers['traceparent'];
    const close = () => budget.close();
    request.onAbandoned?.(close);
    const rendered = this.#render(request, budget);
    // Closed once answered, before whoever awaits the render goes on (a promise's reactions run in the
    // order they were added); not an async function awaiting it, which cost each render one more turn
    // of the microtask queue.
    void rendered.then(close, close);
    return rendered;
  }

  async #render(request: RenderRequest, budget: RequestBudget): Promise<RenderResult> {
    if (request.depth > this.#config.limits.nestingDepth) {
      throw new TesseraError('NESTING_TOO_DEEP', `Nested rendering of "${request.name}" is deeper than the limit of ${this.#config.limits.nestingDepth} levels.`);
    }
    if (request.depth > 0) this.#metrics.nestedRendered('front');
    const component = this.#catalog.resolve(request.name, request.version);
    const tenant = tenantOf(component, this.#config.tenants.default);
    // The request from outside is its root component's tenant's: every execution it causes spends that tenant's share.
    budget.rootTenant ??= tenant;
    // Another tenant's component gets no cookie from its parent: it reads its own under plain names,
    // and could not tell one the parent made up from the site's (decisions §11).
    if (request.callerTenant !== undefined && request.callerTenant !== tenant && request.headers['cookie'] !== undefined) {
      request = { ...request, headers: withoutCookie(request.headers) };
    }
    if (request.mode === 'info') {
      // Exactly OC's info answer (decisions §1).
      const body = { type: 'oc-component', version: component.version, requestVersion: request.version, name: component.name };
      return { body, headers: {}, cookies: [] };
    }

    if (!templateTypeInfo(component.templateType)) {
      throw new TesseraError('TEMPLATE_NOT_SUPPORTED', `This registry cannot render template type "${component.templateType}".`);
    }
    this.#checkPlugins(component);
    const params = component.validateParameters(request.parameters);
    if (request.mode === 'unrendered' && request.clientTemplates && !request.clientTemplates.includes(component.templateType)) {
      request = { ...request, mode: 'rendered' };
    }
    const staticPath = staticPathOf(this.#config.staticBaseUrl ?? request.baseUrl, component.name, component.version);
    const answer = await this.#execute(component, tenant, request, params, staticPath, budget);
    if (!answer.ok) throw componentError(component, answer);

    const href = buildHref(request.baseUrl, component.name, request.version, params);
    // Built by assignment in a fixed order, not by object spread: V8 gives a spread's copy a hidden
    // class of its own, and every property added after it then took the runtime's slow path.
    const body: Record<string, unknown> = request.omitHref ? {} : { href };
    body.name = component.name;
    body.version = component.version;
    body.requestVersion = request.version;
    // An action answers the unrendered shape, as OC does (decisions §6), its result as data.
    const mode = request.action === undefined ? request.mode : 'unrendered';
    if (mode === 'unrendered') {
      body.data = request.action !== undefined ? answer.data : answer.empty ? { __oc_emptyResponse: true } : answer.noModel ? null : answer.data;
      body.template = { src: `${staticPath}template.js`, type: component.templateType, key: component.templateKey };
    } else {
      body.html = answer.empty
        ? ''
        : wrapHtml((answer.html ?? '') + (answer.console ? consoleRelayScript(component.name, component.version, answer.console) : ''), {
            href,
            templateKey: component.templateKey,
            name: component.name,
            version: component.version,
            container: component.descriptor.oc.container === true,
            renderInfo: component.descriptor.oc.renderInfo !== false,
          });
    }
    body.type = 'oc-component';
    body.renderMode = mode;
    body.baseUrl = request.baseUrl;
    const cookies = answer.cookies.length === 0 ? answer.cookies : answer.cookies.map((cookie) => ({ ...cookie, name: scopedCookieName(component.cookieScope, cookie.name) }));
    // Rendered through the front: the caller's next executions may have it leased, to run beside them.
    if (request.caller !== undefined) this.#nested.learn(request.caller.key, request.name, request.version);
    return { body, headers: answer.headers, cookies };
  }

  #checkPlugins(component: ComponentVersion): void {
    const declared = component.descriptor.oc.plugins ?? [];
    const missingPlugins = declared.filter((name) => !this.#config.plugins.some((plugin) => plugin.name === name));
    if (missingPlugins.length > 0) {
      throw new TesseraError('PLUGIN_MISSING_FROM_REGISTRY', `The registry lacks the plugins "${component.name}" needs: ${missingPlugins.join(', ')}.`, {
        details: { missingPlugins },
      });
    }
  }

  #execute(component: ComponentVersion, tenant: string, request: RenderRequest, params: Record<string, unknown>, staticPath: string, budget: RequestBudget): Promise<SandboxAnswer> {
    const headers = request.headers;
    const input = executionInput({
      cookieScope: component.cookieScope,
      action: request.action,
      mode: request.mode,
      params,
      given: request.parameters,
      headers,
      baseUrl: request.baseUrl,
      staticPath,
      tenantCookies: cookiesOfOthers(component.cookieScope, headers, (other) => this.#cookieOwner(other) === tenant),
      shared: request.inputParts,
    });
    const sight = tailSight(this.#tails, tenant, request.callerTenant);
    const children = unleasedWhenWatched(this.#tails, sight, this.#nested.childrenOf(component.sandboxKey, request.depth));
    const job: ExecutionJob = {
      key: component.sandboxKey,
      component: component.name,
      tenant,
      plugins: component.descriptor.oc.plugins ?? [],
      loadCode: () => this.#codeOf(component, tenant),
      input,
      depth: request.depth,
      budget,
      caller: request.caller,
      children,
      // A child its host ran: counted and logged as any nested render is.
      ranNested:
        children &&
        ((child, run) => {
          const planned = children[child]!;
          this.#metrics.nestedRendered('host');
          this.#metrics.recordExecution(planned.version, planned.tenant, run.ms / 1000, run.outcome, run.short !== true);
          const ok = run.outcome === 'ok';
          if (!ok) noteNestedFailure(this.lastErrors, { name: planned.plan.name, version: planned.plan.version, tenant: planned.tenant }, run.outcome);
          // Successes are logged only with the access log on: no line is built otherwise.
          const log = ok ? this.#log.rendered : this.#log.failed;
          if (log === undefined) return;
          const nested = { reqId: budget.requestId, component: planned.plan.name, requestVersion: planned.plan.requested, depth: request.depth + 1 };
          if (ok) log({ ...nested, version: planned.plan.version }, 'nested render');
          else log({ ...nested, code: isErrorCode(run.outcome) ? run.outcome : 'GENERIC_ERROR' }, 'nested render failed');
        }),
    };
    if (sight === 'full') job.tail = true;
    const ended = this.#metrics.executionTimer(component, tenant, job);
    let answer: Promise<SandboxAnswer> = this.#pool.execute(job).then(
      (json) => {
        const parsed = JSON.parse(json) as SandboxAnswer;
        if (parsed.ok) {
          ended('ok');
          return parsed;
        }
        const failure = checkedFailure(parsed);
        ended(failure.code);
        return noteFailure(this.lastErrors, component, tenant, failure);
      },
      (error: unknown) => {
        ended(error instanceof TesseraError ? error.code : 'GENERIC_ERROR');
        return noteRejection(this.lastErrors, component, tenant, error);
      },
    );
    if (sight !== undefined) {
      const mapFrames = (stack: string[]) => this.#sourceMaps.mapped(component, stack);
      answer = recordForTails(this.#tails!, { tenant, name: component.name, version: component.version, request, budget, mapFrames }, job, answer);
    }
    return answer;
  }

  /**
   * The tenant the cookies under `scope` (a cookie scope: a component's name, `~<generation>` after a
   * move) count for: the tenant of its versions published under that scope (its latest version's,
   * usually), or, once the component left the catalog (unpublished), the tenant of its last version:
   * the cookies outlive it in the jar.
   */
  #cookieOwner(scope: string): string | undefined {
    const tilde = scope.indexOf('~');
    const name = tilde === -1 ? scope : scope.slice(0, tilde);
    const published = this.#catalog.latest(name);
    if (published) {
      if (published.cookieScope === scope) return tenantOf(published, this.#config.tenants.default);
      // A former owner's cookies (the name moved since): the tenant of the versions it published under them.
      for (const version of this.#catalog.versions(name)) {
        const earlier = this.#catalog.resolve(name, version);
        if (earlier.cookieScope === scope) return tenantOf(earlier, this.#config.tenants.default);
      }
      return tenantOf(published, this.#config.tenants.default);
    }
    const former = this.#catalog.formerPublisher(name);
    return former === undefined ? undefined : (former ?? this.#config.tenants.default);
  }

  /** The version's code with its constants, sent to a host that lacks its warm context. */
  async #codeOf(component: ComponentVersion, tenant: string): Promise<ComponentCode> {
    const stored = await component.loadCode();
    return {
      tenant,
      template: stored.template,
      templateKey: stored.templateKey,
      server: stored.server,
      constants: {
        name: component.name,
        cookieScope: component.cookieScope,
        version: component.version,
        env: { ...component.env, ...this.#config.env },
        templates: TEMPLATES,
        plugins: component.descriptor.oc.plugins ?? [],
        relayConsole: this.#config.development,
      },
    };
  }
}

function requestLimitsOf(config: RegistryConfig): RequestLimits {
  const limits = config.limits;
  return { timeoutMs: limits.executionTimeoutMs, maxExecutions: limits.maxExecutionsPerRequest, maxSlots: limits.maxSlotsPerRequest, maxNestedChars: limits.maxNestedBytesPerRequest };
}

function componentError(component: ComponentVersion, answer: SandboxFailure): TesseraError {
  return new TesseraError(answer.code, failureMessage(component.name, answer), { status: answer.status, details: answer.details });
}
