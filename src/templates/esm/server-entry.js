// The server template of an oc-template-esm function component: Preact renders it to a string
// inside the sandbox, and the browser hydrates that markup (see ../hydration-unit.js).
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import View from 'tessera:view';
import { hydrationUnit } from '../hydration-unit.js';
import { setInitialData } from './oc-server-client.js';

export default function render(props) {
  setInitialData(props);
  return hydrationUnit(props, renderToString(h(View, props)), 'hydrate');
}
