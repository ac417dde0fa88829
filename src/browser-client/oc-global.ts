import type { EventBus } from './event-bus';
import type { External, HydrationUnit, NodeCallback, TemplateInfo } from './types';

/** `oc.conf`, set by the page before the client loads (OC's names, so existing pages keep working). */
export interface OcConf {
  /** Logs every `oc.events` event with `console.log`. */
  debug?: boolean;
  /** First retry delay in ms (default 1000); each retry doubles it, up to 8 times this value. */
  retryInterval?: number;
  /** Retries of a network failure or 5xx before giving up (default 30). */
  retryLimit?: number;
  /** `false` leaves `__oc_Retry=<attempt>` out of the URL. */
  retrySendNumber?: boolean;
  /** How often (ms) a render waits on an element another script is rendering (default 500). */
  pollingInterval?: number;
  /** Tag name of components (default `oc-component`); read once, when the client loads. */
  tag?: string;
  /** `true`: nothing is shown inside an element while it loads. */
  disableLoader?: boolean;
  /** Text shown inside an element while it loads. */
  loadingMessage?: string;
  /** `true`: elements do not render themselves when connected (the page calls `oc.renderUnloadedComponents`). */
  disableLifecycles?: boolean;
  /** Parameters added to every request. */
  globalParameters?: Record<string, unknown>;
  /** Headers added to every request, or a function answering them. */
  globalHeaders?: Record<string, string> | (() => Record<string, string>);
  /** Template types to register (OC's `{type, externals}`), overriding the built-in ones. */
  templates?: TemplateRegistration | TemplateRegistration[];
}

export interface TemplateRegistration {
  type: string;
  externals?: Array<External | string>;
}

/** What `oc.renderByHref` hands to its callback on success. */
export interface RenderedComponentData {
  id?: string | number;
  ocId?: number;
  html: string;
  baseUrl?: string;
  key?: string;
  version?: string;
  name?: string;
  /** Set when the view's template type mounts itself once its HTML is in the page. */
  mount?: (element: HTMLElement) => void;
}

/** Why a render failed, beside OC's error sentence: for the `oc:error` DOM event. */
export interface RenderFailure {
  status?: number;
  code?: string;
  error: string;
  name?: string;
  version?: string;
}

export interface RenderByHrefOptions {
  href: string;
  id?: string | number | null;
  element?: HTMLElement;
  retryNumber?: number;
}

export type RenderByHrefCallback = (error: unknown, data?: RenderedComponentData | null, failure?: RenderFailure) => void;

export interface GetDataOptions {
  baseUrl?: string;
  name?: string;
  version?: string;
  parameters?: Record<string, unknown>;
  action?: string;
  signal?: AbortSignal;
  json?: boolean;
}

export interface GetActionOptions extends GetDataOptions {
  component: string;
}

/** `window.oc`: OC's browser API, which pages and component views call. */
export interface Oc {
  status?: 'loading' | 'ready';
  conf: OcConf;
  cmd: Array<(oc: Oc) => void> | { push(fn: (oc: Oc) => void): void };
  /** name → where it came from; the registry's render-info script stores a bare version string. */
  renderedComponents: Record<string, { version?: string; baseUrl?: string } | string>;
  /** Compiled views, registered by each `template.js` under its template key. */
  components?: Record<string, unknown>;
  clientVersion: string;
  events: EventBus;
  ready(callback: () => void): void;
  build(options: { baseUrl?: string; name?: string; version?: string; parameters?: Record<string, unknown> }): string;
  getData(options: GetDataOptions, callback?: NodeCallback<unknown>): void;
  getAction(options: GetActionOptions): Promise<unknown>;
  render(template: TemplateInfo, model: unknown, callback: NodeCallback<string>): void;
  renderByHref(hrefOrOptions: string | RenderByHrefOptions, retryNumberOrCallback?: number | RenderByHrefCallback, callback?: RenderByHrefCallback): void;
  renderNestedComponent(element: HTMLElement | ArrayLike<HTMLElement>, callback: () => void): void;
  renderUnloadedComponents(): void;
  load(placeholder: HTMLElement | ArrayLike<HTMLElement> | null, href: string, callback?: (element: HTMLElement) => void): void;
  registerTemplates(templates: TemplateRegistration | TemplateRegistration[]): Record<string, { externals?: Array<External | string> }>;
  require(nameSpace: string | string[] | undefined, url: string | ((value: unknown) => void), callback?: (value: unknown) => void): void;
  requireSeries(toLoad: External[], loaded: unknown[] | ((loaded: unknown[]) => void), callback?: (loaded: unknown[]) => void): void;
  addStylesToHead(styles: string): void;
  /** Hydrates (or mounts into) a root that a server render of esm or react wrote; called by the script after it. */
  hydrate(root: Element | null, unit: HydrationUnit): void;
}
