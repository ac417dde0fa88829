import type { VersionConstants } from '../../src/sandbox/protocol';
import type { CodedFailures, PreludeAnswer } from './coded-failures';
import type { CookieRules } from './cookie-rules';
import type { DevelopmentConsole } from './dev-console';
import type { HeaderRules } from './header-rules';
import type { HostBridges } from './host-bridges';
import type { Intrinsics } from './intrinsics';
import type { TailCapture } from './tail-capture';

/** What the component's server bundle and template defined, once they have run (install-prelude.ts sets them). */
export interface LoadedComponent {
  exports: any;
  view: ((model: unknown) => unknown) | undefined;
}

/** A modern entry's definition (`new Server(…)`), or a legacy `data(ctx, callback)`. */
export type DefinitionOf = (exported: any) => { modern: any; legacy: undefined } | { modern: undefined; legacy: any } | undefined;

/** What the parts before it built, for the executions' `ctx`. */
export interface CtxParts {
  readonly intrinsics: Intrinsics;
  readonly failures: CodedFailures;
  readonly headers: HeaderRules;
  readonly cookies: CookieRules;
  readonly bridges: HostBridges;
  readonly devConsole: DevelopmentConsole;
  readonly tail: TailCapture;
  readonly loaded: LoadedComponent;
  readonly definitionOf: DefinitionOf;
}

/**
 * Runs INSIDE each isolate (see prelude-source.ts; self-contained, injected as text): answers the
 * function that runs one execution: it builds the execution's `ctx` from its input (JSON the front
 * made: src/pipeline/execution-input.ts), runs the component's server logic and view, and answers
 * the outcome as the JSON the host reads. `version` holds what every execution of this version reads
 * and no request changes (its name, the environment, the template types): installed once per context,
 * so it never crosses per execution. Each execution gets its own copies of `env` and `templates`.
 */
export function ctxBuilder(parts: CtxParts, version: VersionConstants, maxNestedBatch: number, maxNestedRenders: number) {
  'use strict';
  const { intrinsics, failures, headers: headerRules, cookies: cookieRules, bridges, devConsole, tail, loaded, definitionOf } = parts;
  const { stringify, parse, ErrorCtor, TypeErrorCtor, RangeErrorCtor, PromiseCtor, isArray, keys, hasOwn, freeze, defineProperty } = intrinsics;
  const { fail, answer, bounded, NOT_SERIALIZABLE } = failures;
  const { callHost, callHostSync } = bridges;
  /**
   * A fresh copy of plain data read from JSON, as `parse(stringify(value))` would give it, in a third
   * of its time for the small values each execution gets; `__proto__` stays an own key, as JSON.parse
   * makes it. Index loops: no iterator a component could reach.
   */
  const copyData = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (isArray(value)) {
      const copy: unknown[] = [];
      for (let index = 0; index < value.length; index++) copy[index] = copyData(value[index]);
      return copy;
    }
    const copy: Record<string, unknown> = {};
    const names = keys(value);
    for (let index = 0; index < names.length; index++) {
      const name = names[index]!;
      const item = copyData((value as Record<string, unknown>)[name]);
      if (name === '__proto__') defineProperty(copy, name, { value: item, writable: true, enumerable: true, configurable: true });
      else copy[name] = item;
    }
    return copy;
  };
  // Kept as JSON reads them, out of every component's reach: each execution gets copies.
  const env = parse(stringify(version.env));
  const templates = parse(stringify(version.templates));

  const withCallback = (promise: Promise<unknown>, callback: unknown) => {
    if (typeof callback !== 'function') return promise;
    promise.then((value) => callback(null, value), (error) => callback(error));
    return undefined;
  };

  return async (inputJson: string, execId: number): Promise<PreludeAnswer> => {
    const input = parse(inputJson);
    const relayConsole = version.relayConsole && definitionOf(loaded.exports)?.modern?.options?.development?.console === true;
    if (relayConsole) devConsole.keep();
    const headers: Record<string, string> = {};
    const jar = cookieRules.cookieJar(
      input.heldCookies,
      typeof input.tenantCookieBytes === 'number' ? input.tenantCookieBytes : 0,
      typeof input.tenantCookieNames === 'number' ? input.tenantCookieNames : 0,
    );
    let empty = false;
    // A legacy data() may end by returning setEmptyResponse() without calling back (decisions §8).
    let endLegacy: ((model: undefined) => void) | undefined;

    const plugins: Record<string, (...args: unknown[]) => unknown> = {};
    for (const name of version.plugins) plugins[name] = (...args: unknown[]) => callHostSync(execId, 'plugin', { name, args });

    // Counted here, before anything crosses: a render the registry refuses (an unknown component, a
    // spent budget) costs no execution, and a loop of them would flood the host and the front.
    let nestedRenders = 0;
    const renderOne = (name: unknown, options: any) => {
      if (typeof name !== 'string') return PromiseCtor.reject(new TypeErrorCtor('renderComponent expects a component name.'));
      if (++nestedRenders > maxNestedRenders) {
        return PromiseCtor.reject(new RangeErrorCtor(`A component may ask for at most ${maxNestedRenders} nested renders in one execution.`));
      }
      const version = options?.version;
      if (version !== undefined && typeof version !== 'string') return PromiseCtor.reject(new TypeErrorCtor('renderComponent: options.version must be a version expression (a string).'));
      let headers: Record<string, string> | undefined;
      try {
        headers = headerRules.nestedHeaders(options?.headers);
      } catch (error) {
        return PromiseCtor.reject(error);
      }
      return callHost(execId, 'render', { name, version, parameters: options?.parameters, headers, baseUrl: input.baseUrl });
    };

    const ctx: any = {
      acceptLanguage: input.acceptLanguage,
      baseUrl: input.baseUrl,
      env: copyData(env),
      params: input.params,
      plugins: freeze(plugins),
      requestHeaders: input.requestHeaders,
      staticPath: input.staticPath,
      templates: copyData(templates),
      state: undefined,
      setEmptyResponse() {
        empty = true;
        if (endLegacy) endLegacy(undefined);
      },
      setHeader(name: unknown, value: unknown) {
        headerRules.setHeader(headers, name, value);
      },
      setCookie(name: unknown, value: unknown, options?: any) {
        cookieRules.setCookie(jar, name, value, options);
      },
      renderComponent(name: unknown, options?: unknown, callback?: unknown) {
        if (typeof options === 'function') [options, callback] = [undefined, options];
        return withCallback(renderOne(name, options), callback);
      },
      renderComponents(components: unknown, options?: any, callback?: unknown) {
        if (typeof options === 'function') [options, callback] = [undefined, options];
        if (!isArray(components)) return withCallback(PromiseCtor.reject(new TypeErrorCtor('renderComponents expects an array.')), callback);
        if (components.length > maxNestedBatch) {
          return withCallback(PromiseCtor.reject(new RangeErrorCtor(`renderComponents takes at most ${maxNestedBatch} components.`)), callback);
        }
        const all = PromiseCtor.all(
          components.map((c: any) =>
            renderOne(c && c.name, {
              version: c && c.version,
              parameters: { ...(options && options.parameters), ...(c && c.parameters) },
              headers: options && options.headers,
            }).catch((error: unknown) => (error instanceof ErrorCtor ? error : new ErrorCtor(String(error)))),
          ),
        );
        return withCallback(all, callback);
      },
    };

    let model: unknown;
    try {
      const definition = definitionOf(loaded.exports);
      if (input.op === 'action') {
        const actions = definition && definition.modern && definition.modern.actions;
        // Only an action the component registered: `toString` or `constructor` of the actions object is none.
        const fn = actions && hasOwn(actions, input.action) ? actions[input.action] : undefined;
        if (typeof fn !== 'function') return answer(stringify({ ok: false, code: 'NOT_FOUND', message: `The component has no action "${input.action}".` }));
        if (definition!.modern.middleware) ctx.state = await definition!.modern.middleware(input.params, ctx);
        const data = await fn(input.params, ctx);
        return finish({ data: data === undefined ? null : data });
      }
      if (!definition) {
        model = loaded.exports === undefined ? {} : undefined; // static component: the view gets an empty model
      } else if (definition.modern) {
        if (definition.modern.middleware) ctx.state = await definition.modern.middleware(input.params, ctx);
        model = definition.modern.handler ? await definition.modern.handler(input.params, ctx) : undefined;
      } else {
        model = await new PromiseCtor((resolve, reject) => {
          endLegacy = resolve;
          definition.legacy(ctx, (error: unknown, viewModel: unknown) => (error ? reject(error) : resolve(viewModel)));
        });
      }
    } catch (error) {
      tail.thrown(execId, error);
      return fail(error, 'GENERIC_ERROR');
    }

    if (empty) return finish({ empty: true });
    if (model === undefined || model === null) return finish({ noModel: true });
    if (input.mode === 'unrendered') return finish({ data: model });
    // The view model must be JSON-serializable in rendered mode too (decisions §2), not only when it leaves as data.
    try {
      if (stringify(model) === undefined) return NOT_SERIALIZABLE;
    } catch {
      return NOT_SERIALIZABLE;
    }
    // OC's es6 and esm views read these props beside the model (decisions §4).
    const props =
      typeof model === 'object' && !isArray(model)
        ? { ...model, _staticPath: input.staticPath, _baseUrl: input.baseUrl, _componentName: version.name, _componentVersion: version.version }
        : model;
    // Called as a plain function, as the view always was: never as a method of `loaded`, which would
    // hand tenant code the prelude's own holder as `this`.
    const view = loaded.view!;
    let html: unknown;
    try {
      html = view(props);
    } catch (error) {
      tail.thrown(execId, error);
      return fail(error, 'RENDER_ERROR');
    }
    if (typeof html !== 'string') return fail(new ErrorCtor('The template did not return a string.'), 'RENDER_ERROR');
    return finish({ html });

    function finish(outcome: object): PreludeAnswer {
      let json: string;
      try {
        const relayed = relayConsole ? devConsole.take() : undefined;
        json = stringify({ ok: true, ...outcome, headers, cookies: jar.cookies, console: relayed });
      } catch {
        return NOT_SERIALIZABLE;
      }
      return bounded(json);
    }
  };
}
