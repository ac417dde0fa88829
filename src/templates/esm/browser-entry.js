// What the browser loads for an oc-template-esm component (template.js): the view with Preact, or
// OC's createComponent form, behind one object the browser client calls.
import { h, hydrate, render } from 'preact';
import View from 'tessera:view';
import { setInitialData } from './oc-server-client.js';

// OC's esm form: createComponent gives an object with mount (and unmount); a function is a component.
const mountsItself = View !== null && typeof View === 'object' && typeof View.mount === 'function';

export default {
  mount(element, props) {
    const model = setInitialData(props, element);
    if (mountsItself) View.mount(element, model, { shadowRoot: null });
    else render(h(View, props), element);
  },
  hydrate(element, props) {
    setInitialData(props, element);
    hydrate(h(View, props), element);
  },
  unmount(element) {
    if (mountsItself) View.unmount?.(element);
    else render(null, element);
  },
};
