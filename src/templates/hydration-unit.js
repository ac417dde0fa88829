// Bundled into the server templates of the types that hydrate (esm, react); runs in the sandbox.
// What a server render answers: the markup inside a root element, followed by a script that asks
// the browser client to hydrate it (or to mount into it) once the client is ready: with the type,
// the template to load, its key, and the props the server rendered with, so that the first
// browser render matches. The script runs where the page's HTML holds it, and again when the
// browser client inserts a rendered answer (it re-creates inserted scripts so that they run).

// The unit goes into the script as a JSON object literal: escaping <, > and & keeps a value such
// as "</script><script>…" from ending the element, and U+2028/2029 are escaped for old parsers.
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
  return (
    '<div data-oc-root>' +
    markup +
    '</div><script>(function(s){var oc=window.oc=window.oc||{};(oc.cmd=oc.cmd||[]).push(function(oc){oc.hydrate(s.previousElementSibling,' +
    escapeJson(JSON.stringify(unit)) +
    ')})})(document.currentScript)</script>'
  );
}
