// The server template of an oc-template-react component: react-dom/server renders it to a string
// inside the sandbox, and the browser hydrates that markup with hydrateRoot (see ../hydration-unit.js).
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import View from 'tessera:view';
import { hydrationUnit } from '../hydration-unit.js';

export default function render(props) {
  return hydrationUnit(props, renderToString(createElement(View, props)), 'hydrate');
}
