import type { TemplateRegistration } from './oc-global';
import { RENDERERS } from './templates';
import { callView, type TemplateRenderer } from './templates/template-renderer';
import type { External } from './types';

/**
 * The template types this page renders: the built-in renderers, plus the types a page registers
 * with `oc.registerTemplates` or `oc.conf.templates` (OC's `{type, externals}`), whose views are
 * called as functions after their externals loaded.
 */
export class TemplateTypes {
  /** OC's view of it, answered by `oc.registerTemplates`: type → `{externals}`. */
  readonly registered: Record<string, { externals?: Array<External | string> }> = {};

  constructor() {
    for (const [type, renderer] of Object.entries(RENDERERS)) this.registered[type] = { externals: [...renderer.externals] };
  }

  register(templates: TemplateRegistration | TemplateRegistration[], overwrite: boolean): void {
    for (const template of Array.isArray(templates) ? templates : [templates]) {
      if (overwrite || !this.registered[template.type]) this.registered[template.type] = { externals: template.externals };
    }
  }

  rendererOf(type: string): TemplateRenderer | undefined {
    const registration = this.registered[type];
    if (!registration) return undefined;
    const builtIn = RENDERERS[type];
    const externals = (registration.externals ?? []).map((external) => (typeof external === 'string' ? { url: external } : external));
    return { externals, loadView: builtIn?.loadView, render: builtIn?.render ?? callView };
  }
}
