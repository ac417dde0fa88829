// `oc-template-esm-compiler/renderer` as OC's esm components import it.
export function createComponent(options) {
  return typeof options === 'function' ? options() : options;
}

export function getShadowRoot(element) {
  const root = element.getRootNode?.();
  return root && root.host ? root : null;
}
