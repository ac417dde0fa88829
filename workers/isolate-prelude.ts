/**
 * Code that runs INSIDE each isolate, before any tenant code. It is injected with
 * `Function.prototype.toString`, so each function here must be self-contained: no imports and no
 * references to anything outside its own body.
 *
 * It keeps in closures (out of the tenant's reach) the component's exports, its template and the
 * one bridge to the host, and builds the `ctx` for every execution. Values cross the boundary as
 * JSON strings only.
 */

import type { VersionConstants } from '../src/sandbox/protocol';
import type { CookieBounds } from '../src/sandbox/tenancy-policy';

/** The synchronous bridge (plugins) as seen from inside the isolate (an isolated-vm Reference). */
interface HostBridge {
  applyIgnored(receiver: undefined, args: unknown[], options: object): void;
  applySync(receiver: undefined, args: unknown[], options: object): string;
}

/**
 * Posts messages to the host (an isolated-vm Reference to a host function), in the order they were
 * made: `[MESSAGE_ANSWERED, execution id, answer JSON]` and `[MESSAGE_CALL, execution id, call id,
 * op, payload JSON]` (an asynchronous bridge call: a nested render).
 */
interface HostDelivery {
  applyIgnored(receiver: undefined, args: unknown[], options: object): void;
}

/** What a message from the isolate to the host says, read by workers/component-isolate.ts. */
export const MESSAGE_ANSWERED = 0;
export const MESSAGE_CALL = 1;

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

/**
 * `version` holds what every execution of this version reads and no request changes (its name,
 * the environment, the template types): installed once per context, so it never crosses per
 * execution. Each execution gets its own copies of `env` and `templates`.
 */
export function installPrelude(global: any, bridge: HostBridge, deliver: HostDelivery, limits: PreludeLimits, version: VersionConstants): void {
  'use strict';
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const RangeErrorCtor = RangeError;
  const PromiseCtor = Promise;
  const SharedArrayBufferCtor = SharedArrayBuffer;
  const Int32ArrayCtor = Int32Array;
  const atomicsWait = Atomics.wait;
  const isArray = Array.isArray;
  const keys = Object.keys;
  const hasOwn = Object.hasOwn;
  const freeze = Object.freeze;
  const createObject = Object.create;
  const HOP_BY_HOP = ['connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'proxy-connection', 'te', 'trailer', 'host', 'content-encoding'];
  // Headers the registry owns (decisions §11): cookies go through setCookie and its checks; the
  // others decide how the answer is read and who may read it, for every tenant on the origin.
  // Deprecation: the registry marks a deprecated version itself; a component's own would tell clients
  // that read RFC 9745 that a live version is going away.
  const REGISTRY_OWNED = ['set-cookie', 'content-type', 'content-security-policy', 'strict-transport-security', 'x-content-type-options', 'deprecation'];
  // Headers a browser applies to the whole origin, beyond the answer that carries them: one tenant
  // would wipe every tenant's cookies and storage (Clear-Site-Data), have the origin's network
  // errors, other tenants' URLs among them, reported to a server of its own (NEL, Report-To,
  // Reporting-Endpoints), move the origin elsewhere (Alt-Svc) or set its client hints and login state.
  const ORIGIN_WIDE = ['clear-site-data', 'nel', 'report-to', 'reporting-endpoints', 'alt-svc', 'accept-ch', 'critical-ch', 'set-login', 'service-worker-allowed'];
  // Headers that make a browser fetch or navigate somewhere of the component's choosing: an answer
  // would send the visitor on (Refresh, Location), have it load, prefetch or prerender URLs (Link,
  // Speculation-Rules, SourceMap), post reports (CSP's report-only policy, Expect-CT, X-XSS-Protection's
  // report=), or fetch the same answer again (Activate-Storage-Access: retry). Chained, answers that
  // each set a few cookies and send the visitor to the next fill the origin's jar in seconds.
  const FETCH_OR_NAVIGATE = [
    'refresh', 'location', 'content-location', 'link', 'speculation-rules', 'sourcemap', 'x-sourcemap',
    'content-security-policy-report-only', 'expect-ct', 'x-xss-protection', 'activate-storage-access', 'supports-loading-mode',
  ];
  const isRefusedHeader = (lowerName: string) =>
    HOP_BY_HOP.indexOf(lowerName) !== -1 ||
    REGISTRY_OWNED.indexOf(lowerName) !== -1 ||
    ORIGIN_WIDE.indexOf(lowerName) !== -1 ||
    FETCH_OR_NAVIGATE.indexOf(lowerName) !== -1 ||
    lowerName.startsWith('access-control-') ||
    lowerName.startsWith('attribution-reporting-');
  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
  const CRLF = /[\r\n]/;
  // What HTTP carries in a header's value (Node refuses the rest when the front writes the answer):
  // tab, visible ASCII and space, and the bytes of Latin-1 past ASCII.
  const NOT_HEADER_TEXT = /[^\t\x20-\x7e\x80-\xff]/;
  // `path` and `domain` are not among them: the registry writes every component cookie host-only under
  // its own path (decisions §11), so what a component says of either is read by nobody, and never fails it.
  const COOKIE_OPTIONS = ['httpOnly', 'secure', 'maxAge', 'expires', 'sameSite'];
  const NOT_SERIALIZABLE = stringify({ ok: false, code: 'RENDER_ERROR', message: 'The view model is not JSON-serializable.' });
  const { maxResultChars, maxPayloadChars, maxNestedBatch, maxNestedRenders } = limits;
  const defineProperty = Object.defineProperty;
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
  const MAX_MESSAGE_CHARS = 1000;
  const MAX_HEADERS = 50;
  // Cookies go into the one jar every tenant of the origin shares: a component's cookies, and its
  // tenant's components' together, are bounded where the visitor keeps them (the names and bytes the
  // request says it holds, plus what this answer sets), and one answer sets at most a component's
  // share. Bytes are counted as the browser keeps a cookie: `oc.<component>.<name>=<URI-encoded value>`.
  // The bounds, their reasons and the attacks they answer: src/sandbox/tenancy-policy.ts.
  const MAX_COOKIES = limits.cookies.componentNames;
  const MAX_COOKIE_BYTES = limits.cookies.cookieBytes;
  const MAX_COOKIES_BYTES = limits.cookies.componentBytes;
  const MAX_TENANT_COOKIES_BYTES = limits.cookies.tenantBytes;
  const MAX_TENANT_COOKIES = limits.cookies.tenantNames;
  const SCOPE_CHARS = `oc.${version.cookieScope}.`.length;
  const encodeCookieValue = encodeURIComponent;
  const MAX_NAME_CHARS = 256;
  const MAX_HEADER_VALUE_CHARS = 8192;

  let exportsOfServer: any;
  let view: ((model: unknown) => unknown) | undefined;

  // Only errors made here carry a code and details, kept in this closure: a component cannot forge
  // one, nor rewrite the code or details of one it caught, by setting properties on it.
  const codeOf = new WeakMap<object, { code: string; details: object | undefined }>();
  const coded = (code: string, message: string, details?: object) => {
    const error = new ErrorCtor(message);
    codeOf.set(error, { code, details });
    return error;
  };
  const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);
  const tooLarge = () =>
    stringify({ ok: false, code: 'MEMORY_LIMIT_EXCEEDED', message: `The component's result is larger than the ${maxResultChars} characters allowed to leave the sandbox.` });
  const isObject = (value: unknown): value is object => value !== null && (typeof value === 'object' || typeof value === 'function');
  const UNREADABLE = { message: 'The component threw a value that cannot be read.', status: undefined, allocationFailed: false };
  /** What a thrown value says: a getter or a proxy that throws makes it unreadable, never a second throw. */
  function readThrown(error: unknown): { message: string; status: number | undefined; allocationFailed: boolean } {
    try {
      const fields = isObject(error) ? (error as { message?: unknown; status?: unknown }) : undefined;
      const status = fields?.status;
      const message = String(typeof fields?.message === 'string' ? fields.message : error);
      return {
        message: clip(message, MAX_MESSAGE_CHARS),
        status: typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 ? status : undefined,
        allocationFailed: error instanceof RangeErrorCtor && message === 'Array buffer allocation failed',
      };
    } catch {
      return UNREADABLE;
    }
  }

  /**
   * A failure as the JSON the host reads; codes set by this prelude survive, anything else gets
   * `fallbackCode`. Bounded like a result: it leaves the sandbox too.
   */
  function fail(error: unknown, fallbackCode: string): string {
    const known = isObject(error) ? codeOf.get(error) : undefined;
    const { message, status, allocationFailed } = readThrown(error);
    // The allocator refusing an ArrayBuffer is the memory limit speaking; the heap itself is
    // fine, so this isolate is kept.
    if (allocationFailed) return stringify({ ok: false, code: 'MEMORY_LIMIT_EXCEEDED', message: 'The component passed its sandbox memory limit.' });
    const json = stringify({ ok: false, code: known ? known.code : fallbackCode, status, message, details: known?.details });
    return json.length > maxResultChars ? tooLarge() : json;
  }

  const moduleRequire = (name: unknown) => {
    const named = clip(String(name), MAX_NAME_CHARS);
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
      return fail(error, 'GENERIC_ERROR');
    }
    exportsOfServer = module.exports;
    return stringify({ ok: true });
  };
  global.__tesseraDefineTemplate = (components: Record<string, (model: unknown) => unknown>, key: string) => {
    view = components[key];
  };
  // The development console: a component built with `new Server({development: {console: true}})`
  // on a development registry (`version.relayConsole`) has what it logs kept, bounded, and sent with
  // its next answer; anywhere else the console discards. Executions overlapping in one isolate
  // share the lines: a development registry's concern only.
  let consoleLines: Array<{ level: string; message: string }> | undefined;
  const describe = (value: unknown): string => {
    if (typeof value === 'string') return value;
    try {
      const json = stringify(value);
      return json === undefined ? String(value) : json;
    } catch {
      return String(value);
    }
  };
  const logTo =
    (level: string) =>
    (...args: unknown[]) => {
      if (consoleLines && consoleLines.length < 100) consoleLines.push({ level, message: args.map(describe).join(' ').slice(0, 2000) });
    };
  global.console = freeze({ log: logTo('log'), info: logTo('info'), warn: logTo('warn'), error: logTo('error'), debug: logTo('debug'), trace: logTo('trace') });

  /** The JSON of a bridge call's arguments, refused here when too large to cross. */
  const payloadOf = (op: string, payload: unknown): string => {
    const json = stringify(payload);
    if (json.length > maxPayloadChars) {
      throw new RangeErrorCtor(`The arguments of a ${op === 'render' ? 'nested render' : 'plugin call'} are over ${maxPayloadChars} characters.`);
    }
    return json;
  };
  // Messages go to the host together: those posted in one wave of microtasks (the executions of one
  // batch usually answer in the same one) in one `deliver`, a task for the host's thread, instead of
  // one each. They are sent by a microtask of the same task, and the host holds an answer until its
  // task ends in any case (see workers/component-isolate.ts), so no answer stands any sooner or later.
  // One list keeps their order: an answer given before a call of the same execution reaches the host first.
  // MESSAGE_ANSWERED and MESSAGE_CALL (this function is installed as text: it cannot import them).
  const ANSWERED_MESSAGE = 0;
  const CALL_MESSAGE = 1;
  let posted: unknown[][] = [];
  const promiseThen = PromiseCtor.prototype.then;
  const settled = PromiseCtor.resolve();
  const sendPosted = (): void => {
    if (posted.length === 0) return;
    const messages = posted;
    posted = [];
    deliver.applyIgnored(undefined, [messages], { arguments: { copy: true } });
  };
  const post = (message: unknown[]): void => {
    if (posted.push(message) === 1) promiseThen.call(settled, sendPosted);
  };

  /** The never-settling promise a call of an ended execution gets: nothing of that execution resumes. */
  const never = () => new PromiseCtor(() => {});
  // Executions that produced their answer while calls of theirs were still out, with how many: an
  // answer to such a call must not resume them (decided here, in the isolate's own order, whatever
  // the order in which the host learns of the answer and of the call's result).
  const answeredWithCallsOut = new Map<number, number>();
  const callsOut = new Map<number, number>();
  const callReturned = (execId: number): boolean => {
    const out = (callsOut.get(execId) ?? 1) - 1;
    if (out > 0) callsOut.set(execId, out);
    else callsOut.delete(execId);
    const afterAnswer = answeredWithCallsOut.get(execId);
    if (afterAnswer === undefined) return false;
    if (afterAnswer > 1) answeredWithCallsOut.set(execId, afterAnswer - 1);
    else answeredWithCallsOut.delete(execId);
    return true;
  };
  const answerOf = (answer: string): unknown => {
    const parsed = parse(answer);
    if (parsed.ok) return parsed.value;
    if (parsed.ended) return never();
    // A code the host attaches (a nesting too deep) stays the request's code if the component lets it through.
    throw parsed.code ? coded(parsed.code, parsed.message) : new ErrorCtor(parsed.message);
  };

  // Calls to the host waiting for its answer, by call id: the host answers them when it next enters
  // the isolate (`__tesseraRunMany`), so the code they resume runs in a call of the host's own. An
  // object, not a Map, for the reason src/sandbox/id-table.ts gives (this function cannot import it).
  const waitingCalls: Record<number, (answer: string) => void> = createObject(null);
  let nextCall = 1;
  const callHost = (execId: number, op: string, payload: unknown): Promise<unknown> => {
    let json: string;
    try {
      json = payloadOf(op, payload);
    } catch (error) {
      return PromiseCtor.reject(error);
    }
    callsOut.set(execId, (callsOut.get(execId) ?? 0) + 1);
    const callId = nextCall++;
    return new PromiseCtor<string>((resolve) => {
      waitingCalls[callId] = resolve;
      post([CALL_MESSAGE, execId, callId, op, json]);
    }).then((answer: string) => (callReturned(execId) ? never() : answerOf(answer)));
  };

  // Plugins answer synchronously, as in OC. Not with `applySyncPromise`, which needs the host's thread
  // free for the whole call: the call is sent without waiting, this isolate's thread sleeps on a shared
  // flag the host raises when the answer is in, and a synchronous call (no promise involved) fetches
  // it. A timed-out or disposed isolate is woken by V8 itself.
  const callHostSync = (execId: number, op: string, payload: unknown): unknown => {
    const json = payloadOf(op, payload);
    // What was posted before this call reaches the host first (an answer given, a call made).
    sendPosted();
    const signal = new Int32ArrayCtor(new SharedArrayBufferCtor(4));
    bridge.applyIgnored(undefined, [execId, op, json, signal.buffer], { arguments: { copy: true } });
    atomicsWait(signal, 0, 0);
    const parsed = parse(bridge.applySync(undefined, [execId, `${op}-answer`, ''], { arguments: { copy: true }, result: { copy: true } }));
    if (parsed.ok) return parsed.value;
    throw new ErrorCtor(parsed.ended ? 'The request was already answered.' : parsed.message);
  };

  const withCallback = (promise: Promise<unknown>, callback: unknown) => {
    if (typeof callback !== 'function') return promise;
    promise.then((value) => callback(null, value), (error) => callback(error));
    return undefined;
  };

  function definitionOf(exported: any) {
    const server = exported && exported.server;
    if (server && typeof server === 'object' && server.definition) return { modern: server.definition, legacy: undefined };
    if (exported && typeof exported.data === 'function') return { modern: undefined, legacy: exported.data };
    return undefined;
  }

  /** Read by the packager: the parameters and actions a modern entry declares. */
  global.__tesseraDescribe = () => {
    const definition = definitionOf(exportsOfServer);
    if (!definition) return stringify({ kind: exportsOfServer === undefined ? 'static' : 'invalid' });
    if (definition.legacy) return stringify({ kind: 'legacy' });
    return stringify({ kind: 'modern', parameters: definition.modern.parameters, actions: keys(definition.modern.actions) });
  };

  /**
   * The cookies one answer sets, checked against what the visitor already holds of this component
   * (`held`: `[name, bytes]` from the request's Cookie header). Setting a name again in one answer
   * replaces it. Overwriting or deleting a held cookie is always allowed when it does not grow the jar.
   */
  const cookieJar = (held: Array<[string, number]> | undefined, tenantOthers: number, tenantOtherNames: number) => {
    const kept = new Map<string, number>(held);
    let keptBytes = 0;
    for (const size of kept.values()) keptBytes += size;
    const cookies: Array<{ name: string; value: string; options: Record<string, unknown> }> = [];
    let answerBytes = 0;
    const set = (name: string, value: string, options: Record<string, unknown>, bytes: number) => {
      const earlier = cookies.findIndex((cookie) => cookie.name === name);
      const earlierBytes = earlier === -1 ? 0 : (kept.get(name) ?? 0);
      if (earlier === -1 && cookies.length >= MAX_COOKIES) throw new RangeErrorCtor(`A component may set at most ${MAX_COOKIES} cookies in one answer.`);
      if (answerBytes - earlierBytes + bytes > MAX_COOKIES_BYTES) throw new RangeErrorCtor(`The cookies of one answer may hold at most ${MAX_COOKIES_BYTES} bytes together.`);
      const before = kept.get(name);
      if (before === undefined && kept.size >= MAX_COOKIES) {
        throw new RangeErrorCtor(`setCookie: a visitor keeps at most ${MAX_COOKIES} cookies of one component; "${name}" would be one more.`);
      }
      if (before === undefined && tenantOtherNames + kept.size >= MAX_TENANT_COOKIES) {
        throw new RangeErrorCtor(`setCookie: a visitor keeps at most ${MAX_TENANT_COOKIES} cookies of one tenant's components; "${name}" would be one more.`);
      }
      const after = keptBytes - (before ?? 0) + bytes;
      if (after > MAX_COOKIES_BYTES && after > keptBytes) {
        throw new RangeErrorCtor(`setCookie: a visitor keeps at most ${MAX_COOKIES_BYTES} bytes of one component's cookies.`);
      }
      if (tenantOthers + after > MAX_TENANT_COOKIES_BYTES && after > keptBytes) {
        throw new RangeErrorCtor(`setCookie: a visitor keeps at most ${MAX_TENANT_COOKIES_BYTES} bytes of the cookies of one tenant's components.`);
      }
      kept.set(name, bytes);
      keptBytes = after;
      answerBytes += bytes - earlierBytes;
      const cookie = { name, value, options };
      if (earlier === -1) cookies.push(cookie);
      else cookies[earlier] = cookie;
    };
    return { cookies, set };
  };

  const run = async (inputJson: string, execId: number): Promise<string> => {
    const input = parse(inputJson);
    const relayConsole = version.relayConsole && definitionOf(exportsOfServer)?.modern?.options?.development?.console === true;
    if (relayConsole) consoleLines ??= [];
    const headers: Record<string, string> = {};
    const jar = cookieJar(
      input.heldCookies,
      typeof input.tenantCookieBytes === 'number' ? input.tenantCookieBytes : 0,
      typeof input.tenantCookieNames === 'number' ? input.tenantCookieNames : 0,
    );
    let empty = false;
    // A legacy data() may end by returning setEmptyResponse() without calling back (decisions §8).
    let endLegacy: ((model: undefined) => void) | undefined;

    const plugins: Record<string, (...args: unknown[]) => unknown> = {};
    for (const name of version.plugins) plugins[name] = (...args: unknown[]) => callHostSync(execId, 'plugin', { name, args });

    // A child reads its request headers as HTTP gives them: lowercase names, string values.
    const nestedHeaders = (given: unknown): Record<string, string> | undefined => {
      if (given === undefined || given === null) return undefined;
      if (typeof given !== 'object' || isArray(given)) throw new TypeErrorCtor('renderComponent: options.headers must be an object of header names and string values.');
      const headers: Record<string, string> = {};
      for (const name of keys(given)) {
        const value = (given as Record<string, unknown>)[name];
        if (!TOKEN.test(name)) throw new TypeErrorCtor(`renderComponent: "${name.slice(0, MAX_NAME_CHARS)}" is not a header name.`);
        if (typeof value !== 'string') throw new TypeErrorCtor(`renderComponent: the value of header "${name.slice(0, MAX_NAME_CHARS)}" must be a string.`);
        headers[name.toLowerCase()] = value;
      }
      return headers;
    };
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
        headers = nestedHeaders(options?.headers);
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
        if (typeof name !== 'string' || typeof value !== 'string') throw new TypeErrorCtor('setHeader(name, value) takes two strings.');
        if (!TOKEN.test(name) || isRefusedHeader(name.toLowerCase())) throw new TypeErrorCtor(`Header "${name}" cannot be set by a component.`);
        if (CRLF.test(value)) throw new TypeErrorCtor(`The value of header "${name}" contains a line break.`);
        if (NOT_HEADER_TEXT.test(value)) throw new TypeErrorCtor(`The value of header "${name}" contains a character HTTP cannot carry.`);
        if (name.length > MAX_NAME_CHARS || value.length > MAX_HEADER_VALUE_CHARS) throw new RangeErrorCtor(`Header "${name.slice(0, MAX_NAME_CHARS)}" is over its size limit.`);
        const key = name.toLowerCase();
        if (!hasOwn(headers, key) && keys(headers).length >= MAX_HEADERS) throw new RangeErrorCtor(`A component may set at most ${MAX_HEADERS} headers.`);
        headers[key] = value;
      },
      setCookie(name: unknown, value: unknown, options?: any) {
        if (typeof name !== 'string' || !TOKEN.test(name)) throw new TypeErrorCtor('setCookie: the cookie name must be a non-empty token.');
        if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw new TypeErrorCtor('setCookie: the cookie value must be a string.');
        // The cookie as the front sends it, its value URI-encoded (a '€' is 9 bytes).
        const bytes = name.length > MAX_NAME_CHARS ? Infinity : SCOPE_CHARS + name.length + 1 + encodeCookieValue(String(value)).length;
        if (bytes > MAX_COOKIE_BYTES) throw new RangeErrorCtor(`setCookie: cookie "${name.slice(0, MAX_NAME_CHARS)}" is over its size limit of ${MAX_COOKIE_BYTES} bytes.`);
        const kept: Record<string, unknown> = {};
        if (options && typeof options === 'object') {
          for (const key of COOKIE_OPTIONS) if (options[key] !== undefined) kept[key] = key === 'expires' && options[key] instanceof Date ? options[key].toUTCString() : options[key];
          for (const key of keys(kept)) {
            if (typeof kept[key] === 'string' && (kept[key] as string).length > MAX_NAME_CHARS) throw new RangeErrorCtor(`setCookie: option "${key}" is over its size limit.`);
          }
        }
        jar.set(name, String(value), kept, bytes);
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
      const definition = definitionOf(exportsOfServer);
      if (input.op === 'action') {
        const actions = definition && definition.modern && definition.modern.actions;
        // Only an action the component registered: `toString` or `constructor` of the actions object is none.
        const fn = actions && hasOwn(actions, input.action) ? actions[input.action] : undefined;
        if (typeof fn !== 'function') return stringify({ ok: false, code: 'NOT_FOUND', message: `The component has no action "${input.action}".` });
        if (definition!.modern.middleware) ctx.state = await definition!.modern.middleware(input.params, ctx);
        const data = await fn(input.params, ctx);
        return finish({ data: data === undefined ? null : data });
      }
      if (!definition) {
        model = exportsOfServer === undefined ? {} : undefined; // static component: the view gets an empty model
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
    let html: unknown;
    try {
      html = view!(props);
    } catch (error) {
      return fail(error, 'RENDER_ERROR');
    }
    if (typeof html !== 'string') return fail(new ErrorCtor('The template did not return a string.'), 'RENDER_ERROR');
    return finish({ html });

    function finish(outcome: object): string {
      let json: string;
      try {
        const relayed = relayConsole && consoleLines!.length > 0 ? consoleLines!.splice(0) : undefined;
        json = stringify({ ok: true, ...outcome, headers, cookies: jar.cookies, console: relayed });
      } catch {
        return NOT_SERIALIZABLE;
      }
      return json.length > maxResultChars ? tooLarge() : json;
    }
  };
  // Intl objects keep their ICU data outside the V8 heap, where the memory limit does not see it
  // (about 27 KB each for a DateTimeFormat): each creation is counted. Past INTL_RECYCLE_AT the
  // answer asks the host to rebuild this isolate once idle, which frees them; past INTL_REFUSE_AT
  // (within one isolate's life) creating another throws.
  const INTL_RECYCLE_AT = 1000;
  const INTL_REFUSE_AT = 2000;
  let intlObjects = 0;
  const intl = global.Intl;
  const construct = Reflect.construct;
  for (const name of Object.getOwnPropertyNames(intl)) {
    const Original = intl[name];
    if (typeof Original !== 'function' || !/^[A-Z]/.test(name)) continue;
    const Counted = function (this: unknown, ...args: unknown[]) {
      if (++intlObjects > INTL_REFUSE_AT) {
        throw coded('MEMORY_LIMIT_EXCEEDED', `The component created more than ${INTL_REFUSE_AT} Intl objects in its sandbox, which holds them outside its memory limit.`);
      }
      return construct(Original, args, new.target === undefined || new.target === Counted ? Original : new.target);
    };
    for (const key of Object.getOwnPropertyNames(Original)) {
      if (key !== 'length' && key !== 'name' && key !== 'prototype') Object.defineProperty(Counted, key, Object.getOwnPropertyDescriptor(Original, key)!);
    }
    Object.defineProperty(Counted, 'name', { value: name });
    Counted.prototype = Original.prototype;
    Object.defineProperty(Original.prototype, 'constructor', { value: Counted, writable: true, configurable: true });
    intl[name] = Counted;
  }
  // A Segmenter keeps a copy of each text it segments in ICU, outside the heap too: a text counts as
  // many Intl objects as its copy weighs (two bytes a character, an object counted as 27 KB).
  // `Intl.v8BreakIterator`, V8's own older form of it, is removed.
  const CHARS_PER_INTL_OBJECT = 13_500;
  delete intl.v8BreakIterator;
  const segment = intl.Segmenter.prototype.segment;
  const toText = String;
  Object.defineProperty(intl.Segmenter.prototype, 'segment', {
    value: function (this: unknown, text: unknown) {
      // Converted once: a text whose toString answers differently each time is counted as it is segmented.
      const string = toText(text);
      intlObjects += Math.floor(string.length / CHARS_PER_INTL_OBJECT);
      if (++intlObjects > INTL_REFUSE_AT) {
        throw coded('MEMORY_LIMIT_EXCEEDED', `The component segmented more text than its sandbox may hold outside its memory limit (${INTL_REFUSE_AT} Intl objects' worth).`);
      }
      return segment.call(this, string);
    },
    writable: true,
    configurable: true,
  });
  const RECYCLE = ',"recycle":true}';
  const markRecycle = (json: string): string => (intlObjects >= INTL_RECYCLE_AT ? json.slice(0, -1) + RECYCLE : json);

  const runOne = (execId: number, inputJson: string): Promise<void> =>
    run(inputJson, execId)
      .then(undefined, (error: unknown) => fail(error, 'GENERIC_ERROR'))
      .then((answer) => {
        const out = callsOut.get(execId);
        if (out !== undefined) answeredWithCallsOut.set(execId, out);
        post([ANSWERED_MESSAGE, execId, markRecycle(answer)]);
      });
  // The host enters the isolate once for all the executions of this version that arrived together,
  // and with them the answers to calls of earlier ones: not once each. Each answer stands once the
  // task that produced it has ended (see workers/component-isolate.ts).
  global.__tesseraRunMany = (batch: Array<[number, string]>, callAnswers: Array<[number, string]>): void => {
    for (const [callId, answer] of callAnswers) {
      const resolve = waitingCalls[callId];
      delete waitingCalls[callId];
      resolve?.(answer);
    }
    for (const [execId, inputJson] of batch) void runOne(execId, inputJson);
  };
}
