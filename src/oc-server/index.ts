/**
 * `oc-server`: the module component authors import in `src/entry.server.ts`.
 * The packager bundles it into each component's server code, so it runs inside the sandbox:
 * it must stay free of Node APIs.
 *
 * @example
 * import { Server } from 'oc-server';
 * export const server = new Server()
 *   .withParameters({ name: { type: 'string', default: 'world' } })
 *   .handler(async (params) => ({ greeting: `Hello ${params.name}` }));
 */

export interface ParameterDefinition {
  type: 'string' | 'boolean' | 'number';
  mandatory?: boolean;
  description?: string;
  /** Documentation only; any JSON value. */
  example?: unknown;
  default?: string | boolean | number;
  enum?: Array<string | boolean | number>;
}

export type Params = Record<string, unknown>;
// The ctx shape is documented in docs/guides/authors/server-context.md; authors narrow it themselves.
export type Context = Record<string, any>;

type Middleware = (params: Params, ctx: Context) => unknown;
type Handler = (params: Params, ctx: Context) => unknown;
type Action = (params: Params, ctx: Context) => unknown;

/** What the sandbox runner reads from an exported `server`. */
export interface ServerDefinition {
  parameters: Record<string, ParameterDefinition>;
  middleware: Middleware | undefined;
  handler: Handler | undefined;
  actions: Record<string, Action>;
  options: ServerOptions;
}

export interface ServerOptions {
  development?: { console?: boolean };
}

/** Fails the request with `status` (the registry answers `GENERIC_ERROR` with that status). */
export class ServerError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
    Object.defineProperty(this, 'name', { value: 'ServerError' });
  }
}

/** Builder for a component's server logic; every call returns the same builder for chaining. */
export class Server {
  readonly definition: ServerDefinition;

  constructor(options: ServerOptions = {}) {
    this.definition = { parameters: {}, middleware: undefined, handler: undefined, actions: {}, options };
  }

  /** Declares parameters; the packager copies them into the descriptor's `oc.parameters`. */
  withParameters(definitions: Record<string, ParameterDefinition>): this {
    Object.assign(this.definition.parameters, definitions);
    return this;
  }

  /** Runs before the handler and actions; its result becomes `ctx.state`. */
  middleware(fn: Middleware): this {
    this.definition.middleware = fn;
    return this;
  }

  /** Returns the view model; returning nothing skips template rendering. */
  handler(fn: Handler): this {
    this.definition.handler = fn;
    return this;
  }

  /** Registers a named action, called by `POST /~actions/:action/:name[/:version]`. */
  action(name: string, fn: Action): this {
    this.definition.actions[name] = fn;
    return this;
  }
}

/** Shorthands that start a new builder. */
export const withParameters = (definitions: Record<string, ParameterDefinition>): Server => new Server().withParameters(definitions);
export const middleware = (fn: Middleware): Server => new Server().middleware(fn);
export const handler = (fn: Handler): Server => new Server().handler(fn);
export const action = (name: string, fn: Action): Server => new Server().action(name, fn);
