import { randomUUID } from '../ids/random-uuid';
import { escapeHtml } from './escape-html';

export interface WrapOptions {
  href: string;
  templateKey: string;
  name: string;
  version: string;
  container: boolean;
  renderInfo: boolean;
}

/**
 * The rendered output (decisions §4): `<oc-component>` wrapper unless `oc.container` is true, and
 * the render-info script unless `oc.renderInfo` is false.
 */
export function wrapHtml(html: string, options: WrapOptions): string {
  const info = options.renderInfo
    ? `<script>window.oc=window.oc||{};oc.renderedComponents=oc.renderedComponents||{};oc.renderedComponents[${jsString(options.name)}]=${jsString(options.version)};</script>`
    : '';
  if (options.container) return html + info;
  return (
    `<oc-component href="${escapeHtml(options.href)}" data-hash="${options.templateKey}" id="${randomUUID()}" ` +
    `data-name="${escapeHtml(options.name)}" data-rendered="true" data-version="${escapeHtml(options.version)}">${html}${info}</oc-component>`
  );
}

/** Characters that JSON writes as they are and that cannot end a script element: a name's and a version's. */
const PLAIN = /^[\w.+-]*$/;

/** A JSON string literal that cannot close the surrounding script element; a plain name or version is written as it is. */
const jsString = (value: string): string => (PLAIN.test(value) ? `"${value}"` : JSON.stringify(value).replace(/</g, '\\u003c'));
