import type { VersionConstants } from '../../src/sandbox/protocol';
import type { CookieBounds } from '../../src/sandbox/tenancy-policy';
import type { IsolateMessageKinds } from '../isolate-messages';
import type { ctxBuilder, LoadedComponent } from './build-ctx';
import type { codedFailures } from './coded-failures';
import type { cookieRules } from './cookie-rules';
import type { developmentConsole } from './dev-console';
import type { headerRules } from './header-rules';
import type { HostBridge, hostBridges, HostDelivery } from './host-bridges';
import type { boundIntl } from './intl-bounds';
import type { captureIntrinsics } from './intrinsics';
import type { tailCapture } from './tail-capture';

/** Bounds of what may leave the isolate, decided by the host. */
export interface PreludeLimits {
  maxResultChars: number;
  /** The largest JSON of a nested render's or plugin call's arguments. */
  maxPayloadChars: number;
  /** The most components one `renderComponents` call takes. */
  maxNestedBatch: number;
  /** The most nested renders one execution may ask for, rendered or not. */
  maxNestedRenders: number;
  /** What a component's cookies, and its tenant's components' together, may hold in a visitor's browser. */
  cookies: CookieBounds;
}

/** The prelude's parts, each a self-contained function of this folder, handed in as they were injected. */
export interface PreludeParts {
  captureIntrinsics: typeof captureIntrinsics;
  codedFailures: typeof codedFailures;
  headerRules: typeof headerRules;
  cookieRules: typeof cookieRules;
  hostBridges: typeof hostBridges;
  developmentConsole: typeof developmentConsole;
  tailCapture: typeof tailCapture;
  ctxBuilder: typeof ctxBuilder;
  boundIntl: typeof boundIntl;
}

/**
 * Code that runs INSIDE each isolate, before any tenant code: the prelude, assembled from its parts
 * (prelude-source.ts injects them all as text, so each must be self-contained: no imports and no
 * references to anything outside its own body but its arguments). The built-ins it relies on are
 * captured first, before anything else runs.
 *
 * It keeps in closures (out of the tenant's reach) the component's exports, its template and the
 * bridges to the host, and builds the `ctx` for every execution. Values cross the boundary as JSON
 * strings only.
 */
export function installPrelude(
  global: any,
  bridge: HostBridge,
  deliver: HostDelivery,
  limits: PreludeLimits,
  version: VersionConstants,
  kinds: IsolateMessageKinds,
  parts: PreludeParts,
): void {
  'use strict';
  const intrinsics = parts.captureIntrinsics();
  const { stringify, keys } = intrinsics;
  const failures = parts.codedFailures(intrinsics, limits.maxResultChars);
  const { coded, clip, fail } = failures;
  const headers = parts.headerRules(intrinsics);
  const cookies = parts.cookieRules(intrinsics, limits.cookies, version.cookieScope, headers.isToken, headers.MAX_NAME_CHARS);
  const bridges = parts.hostBridges(intrinsics, bridge, deliver, kinds, failures, limits.maxPayloadChars, (execId) => tail.enter(execId));
  const tail = parts.tailCapture(intrinsics, bridges.postLine);
  const devConsole = parts.developmentConsole(intrinsics, tail);
  const loaded: LoadedComponent = { exports: undefined, view: undefined };

  const moduleRequire = (name: unknown) => {
    const named = clip(String(name), headers.MAX_NAME_CHARS);
    throw coded('DEPENDENCY_MISSING_FROM_REGISTRY', `Module "${named}" is not bundled with the component and the registry does not provide it.`, {
      missingDependencies: [named],
    });
  };

  // Called once by the host with the function that wraps the server bundle; tenant top-level code
  // runs here. Taken by the host (and removed from the global object) before any tenant code runs.
  global.__tesseraDefineServer = (factory: (m: object, e: object, r: unknown) => void): string => {
    const module: any = { exports: {} };
    try {
      factory(module, module.exports, moduleRequire);
    } catch (error) {
      return fail(error, 'GENERIC_ERROR').json;
    }
    loaded.exports = module.exports;
    return stringify({ ok: true });
  };
  global.__tesseraDefineTemplate = (components: Record<string, (model: unknown) => unknown>, key: string) => {
    loaded.view = components[key];
  };
  global.console = devConsole.console;

  function definitionOf(exported: any) {
    const server = exported && exported.server;
    if (server && typeof server === 'object' && server.definition) return { modern: server.definition, legacy: undefined };
    if (exported && typeof exported.data === 'function') return { modern: undefined, legacy: exported.data };
    return undefined;
  }

  /** Read by the packager: the parameters and actions a modern entry declares. */
  global.__tesseraDescribe = () => {
    const definition = definitionOf(loaded.exports);
    if (!definition) return stringify({ kind: loaded.exports === undefined ? 'static' : 'invalid' });
    if (definition.legacy) return stringify({ kind: 'legacy' });
    return stringify({ kind: 'modern', parameters: definition.modern.parameters, actions: keys(definition.modern.actions) });
  };

  const run = parts.ctxBuilder({ intrinsics, failures, headers, cookies, bridges, devConsole, tail, loaded, definitionOf }, version, limits.maxNestedBatch, limits.maxNestedRenders);
  const recycleNow = parts.boundIntl(global, failures);

  // An answer asks the host to retire this isolate once idle when it is the memory limit speaking, or
  // when the isolate holds too much outside its heap.
  // An execution a tail watches (`tailed`) has its console lines sent as logged, and its uncaught exception kept and sent with its answer.
  const runOne = (execId: number, inputJson: string, tailed: number | undefined): Promise<void> => {
    if (tailed === 1) tail.start(execId);
    tail.enter(execId);
    return run(inputJson, execId)
      .then(undefined, (error: unknown) => {
        tail.thrown(execId, error);
        return fail(error, 'GENERIC_ERROR');
      })
      .then((answer) => bridges.postAnswer(execId, answer.json, answer.memory || recycleNow(), tail.take(execId)));
  };
  // The host enters the isolate once for all the executions of this version that arrived together,
  // and with them the answers to calls of earlier ones: not once each. Each answer stands once the
  // task that produced it has ended (see workers/isolate-entries.ts).
  global.__tesseraRunMany = (batch: Array<[number, string, number?]>, callAnswers: Array<[number, string]>): void => {
    bridges.answerCalls(callAnswers);
    for (const [execId, inputJson, tailed] of batch) void runOne(execId, inputJson, tailed);
  };
}
