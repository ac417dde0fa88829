import type { Oc } from './oc-global';
import type { TemplateTypes } from './template-types';
import { isMountingView } from './templates/mounting-view';

/**
 * `oc.hydrate(root, unit)`: makes server-rendered markup live. Runs wherever the markup is: in the
 * page's own HTML (a site that rendered the component on its server) or inserted by this client
 * from a rendered answer. Each root is hydrated once, and marked `data-oc-hydrated="true"` then.
 */
export function createHydrate(oc: Oc, types: TemplateTypes): Oc['hydrate'] {
  const started = new WeakSet<Element>();
  return (root, unit) => {
    if (!root || started.has(root) || typeof unit?.src !== 'string') return;
    started.add(root);
    const template = { src: unit.src, type: unit.type, key: unit.key };
    const renderer = types.rendererOf(unit.type);
    const loading = renderer?.loadView
      ? renderer.loadView(template)
      : new Promise((resolve) => oc.require(['oc', 'components', unit.key], template.src, resolve));
    loading
      .then((view) => {
        if (!isMountingView(view)) throw new Error(`Error getting compiled view: ${template.src}`);
        view[unit.mode === 'mount' ? 'mount' : 'hydrate'](root, unit.props);
        // Pages (and tests) can tell live markup from markup still waiting for its view.
        root.setAttribute('data-oc-hydrated', 'true');
      })
      .catch((error: unknown) => console.error(error));
  };
}
