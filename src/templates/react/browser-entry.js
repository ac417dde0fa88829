// What the browser loads for an oc-template-react component (template.js). React itself is not in
// it: `react` and `react-dom` resolve to the one copy the registry serves for the whole page
// (vendor-entry.js), which the browser client loads before this file.
import { createElement } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import View from 'tessera:view';

const roots = new WeakMap();

export default {
  mount(element, props) {
    const root = createRoot(element);
    roots.set(element, root);
    root.render(createElement(View, props));
  },
  hydrate(element, props) {
    roots.set(element, hydrateRoot(element, createElement(View, props)));
  },
  unmount(element) {
    roots.get(element)?.unmount();
    roots.delete(element);
  },
};
