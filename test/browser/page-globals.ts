/**
 * What the page-side callbacks of the browser tests use. They run in Chromium, but are type-checked
 * here with Node's types, which have no DOM: each test file declares `window` and `document` with
 * these shapes (`declare const window: PageWindow`), for its own module only.
 */
export interface PageElement {
  id: string;
  innerHTML: string;
  textContent: string | null;
  hidden: boolean;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  scrollIntoView(): void;
  remove(): void;
}

export interface PageDocument {
  getElementById(id: string): PageElement | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  createElement(tag: string): PageElement;
  body: PageElement & { appendChild(element: PageElement): void };
}

/** A contract DOM event as the test pages record it. */
export interface SeenEvent {
  type: 'oc:rendered' | 'oc:error';
  name?: string;
  version?: string;
  href?: string;
  id?: string;
  isElement?: boolean;
  status?: number;
  code?: string;
  error?: string;
}

export interface PageOc {
  build(options: { baseUrl: string; name: string; version?: string; parameters?: Record<string, unknown> }): string;
  getAction(options: { component: string; action: string; parameters?: Record<string, unknown> }): Promise<unknown>;
  getData(options: { baseUrl: string; name: string; version: string; parameters?: Record<string, unknown> }, callback: (error: unknown, data: unknown) => void): void;
  renderedComponents: Record<string, unknown>;
}

export interface PageWindow {
  oc: PageOc;
  seen: SeenEvent[];
}

/** The script a test page runs first: records every `oc:rendered` and `oc:error` DOM event in `window.seen`. */
export const RECORD_EVENTS =
  "window.seen=[];for(const type of ['oc:rendered','oc:error'])document.addEventListener(type,(e)=>{const d=e.detail;" +
  'seen.push({type,name:d.name,version:d.version,href:d.href,id:d.id,isElement:d.element===document.getElementById(d.id),status:d.status,code:d.code,error:d.error})});';
