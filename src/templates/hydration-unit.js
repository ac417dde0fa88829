// Bundled into the server templates of the types that hydrate (esm, react); runs in the sandbox.
// What a server render answers: the markup inside a root element, followed by the data the browser
// client needs to hydrate it (or to mount into it): the type, the template to load and its key,
// and the props the server rendered with, so that the first browser render matches.

// The props leave as JSON inside a <script> element: escaping <, > and & keeps a value such as
// "</script><script>…" from ending the element, and U+2028/2029 from ending a line in old parsers.
const UNSAFE = /[<>&\u2028\u2029]/g;
const escapeJson = (json) => json.replace(UNSAFE, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));

export function hydrationUnit(props, markup, mode) {
  const unit = {
    type: __TESSERA_TEMPLATE_TYPE__,
    key: __TESSERA_TEMPLATE_KEY__,
    src: typeof props._staticPath === 'string' ? props._staticPath + 'template.js' : undefined,
    mode,
    props,
  };
  return '<div data-oc-root>' + markup + '</div><script type="application/json" data-oc-hydrate>' + escapeJson(JSON.stringify(unit)) + '</script>';
}
