// The server template of an oc-template-handlebars component: the precompiled spec (template.js
// holds the same) run by the handlebars runtime inside the sandbox.
import Handlebars from 'handlebars/runtime';
import spec from 'tessera:view';

const template = Handlebars.template(spec);

export default function render(props) {
  return template(props);
}
