/**
 * The HTML to put inside an element from a rendered answer: the registry wraps it in its own
 * `<oc-component …>` element (decisions §4), and the element on the page is already one, so the
 * wrapper's content is taken (and its template key); HTML without a wrapper is taken as it is.
 */
export function unwrapRendered(html: string, tag: string): { html: string; key: string | undefined } {
  const template = document.createElement('template');
  template.innerHTML = html;
  const nodes = [...template.content.childNodes].filter((node) => !(node.nodeType === Node.TEXT_NODE && !node.textContent?.trim()));
  const only = nodes[0];
  if (nodes.length === 1 && only instanceof Element && only.localName === tag) {
    return { html: only.innerHTML, key: only.getAttribute('data-hash') ?? undefined };
  }
  return { html, key: undefined };
}

/** Scripts inserted with `innerHTML` never run: each is replaced by a fresh copy, which does (with the page's nonce). */
export function reanimateScripts(element: Element, nonce: string | undefined): void {
  for (const script of [...element.querySelectorAll('script')]) {
    const fresh = document.createElement('script');
    fresh.textContent = script.textContent;
    for (const attribute of [...script.attributes]) fresh.setAttribute(attribute.name, attribute.value);
    if (nonce) fresh.setAttribute('nonce', nonce);
    script.parentNode?.replaceChild(fresh, script);
  }
}
