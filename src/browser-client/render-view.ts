import type { Oc } from './oc-global';
import type { TemplateTypes } from './template-types';
import { normaliseTemplateType } from './templates';
import type { RenderedView, TemplateInfo, ViewProps } from './types';

/**
 * Renders a view of any registered template type: loads its compiled view (once per page) and its
 * externals, then hands the props to the type's renderer. Errors are OC's sentences, as strings.
 */
export function renderTemplate(oc: Oc, types: TemplateTypes, template: TemplateInfo, props: ViewProps | null, callback: (error: string | null, view?: RenderedView) => void): void {
  if (props && props.__oc_emptyResponse === true) return callback(null, '');
  const renderer = types.rendererOf(normaliseTemplateType(template.type));
  if (!renderer) return callback(`Error loading component: view engine "${template.type}" not supported`);
  const withView = (view: unknown) => {
    if (!view) return callback(`Error getting compiled view: ${template.src}`);
    oc.requireSeries([...renderer.externals], () => {
      try {
        callback(null, renderer.render(view, props ?? {}));
      } catch (error) {
        callback(String(error));
      }
    });
  };
  if (renderer.loadView) renderer.loadView(template).then(withView, () => withView(undefined));
  else oc.require(['oc', 'components', template.key], template.src, withView);
}

/** `oc.render(template, model, callback)`: the HTML of a view (a view that mounts itself is mounted by the element path only). */
export function createRender(oc: Oc, types: TemplateTypes): Oc['render'] {
  return (template, model, callback) =>
    renderTemplate(oc, types, template, model as ViewProps | null, (error, view) => {
      if (error !== null) callback(error);
      else callback(null, typeof view === 'string' ? view : view!.html);
    });
}
