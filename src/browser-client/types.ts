/** A script a template type needs before its views can run (OC's `externals`): the global it defines and where to load it. */
export interface External {
  global?: string | string[];
  url: string;
}

/** `template` of an unrendered answer: where the compiled view is, its type and its key. */
export interface TemplateInfo {
  src: string;
  type: string;
  key: string;
}

/** What a view receives: the model plus OC's props (decisions §4). */
export type ViewProps = Record<string, unknown> & {
  _staticPath?: string;
  _baseUrl?: string;
  _componentName?: string;
  _componentVersion?: string;
};

/**
 * What a renderer answers: the HTML to put inside the component's element, and optionally what to
 * run once that HTML is in the page (hydration, event handlers) before `oc:rendered` fires.
 */
export type RenderedView = string | { html: string; mount(element: HTMLElement): void };

/** A registry answer to `GET /<name>[/<version>]`, rendered, unrendered or failed. */
export interface ComponentAnswer {
  href?: string;
  name?: string;
  version?: string;
  requestVersion?: string;
  baseUrl?: string;
  renderMode?: 'rendered' | 'unrendered';
  html?: string;
  data?: Record<string, unknown> | null;
  template?: TemplateInfo;
  /** Error answers (decisions §2). */
  code?: string;
  error?: string;
  details?: unknown;
}

export type NodeCallback<T> = (error: unknown, result?: T) => void;

/**
 * What a server render of oc-template-esm or oc-template-react writes after its markup
 * (src/templates/hydration-unit.js), handed to `oc.hydrate` by the script that follows the markup.
 */
export interface HydrationUnit {
  type: string;
  key: string;
  /** The component's `template.js`. */
  src?: string;
  /** `hydrate` the server's markup, or `mount` into the empty element (OC's esm form, rendered only in browsers). */
  mode: 'hydrate' | 'mount';
  /** The props the server rendered with: the first browser render must be the same. */
  props: ViewProps;
}
