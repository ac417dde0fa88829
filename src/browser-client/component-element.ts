import type { Oc } from './oc-global';
import { settingsOf } from './settings';

const noop = () => {};

/**
 * `<oc-component href>` as a custom element: it renders itself when connected to the page, or, with
 * `loading="lazy"`, once it comes into view. `disable-lifecycle` (or `oc.conf.disableLifecycles`)
 * leaves rendering to the page. Removing a rendered element fires `oc:unrendered` and calls its
 * `unmount()` if a template type gave it one.
 */
export function defineComponentElement(oc: Oc, tag: string, waitingUntilVisible: WeakSet<Element>): void {
  if (!window.customElements || customElements.get(tag)) return;

  class ComponentElement extends HTMLElement {
    #connected = false;
    #managesLifecycle = true;
    #observer: IntersectionObserver | undefined;
    unmount?: () => void;

    connectedCallback(): void {
      this.#connected = true;
      const attribute = this.getAttribute('disable-lifecycle');
      this.#managesLifecycle = attribute === 'true' || attribute === '' ? false : attribute === 'false' ? true : settingsOf(oc).manageLifecycles;
      if (!this.#managesLifecycle) return;
      // Looked up on `oc` at each call: pages replace `oc.renderNestedComponent`.
      if (this.getAttribute('loading') !== 'lazy' || this.getAttribute('data-rendered') === 'true') return oc.renderNestedComponent(this, noop);
      waitingUntilVisible.add(this);
      this.#observer = new IntersectionObserver((entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        this.#stopWatching();
        oc.renderNestedComponent(this, noop);
      });
      this.#observer.observe(this);
    }

    disconnectedCallback(): void {
      this.#stopWatching();
      if (!this.#connected) return;
      this.#connected = false;
      const id = this.getAttribute('id');
      if (id) oc.events.fire('oc:unrendered', { element: this, id });
      if (this.#managesLifecycle && typeof this.unmount === 'function' && this.getAttribute('data-rendered') === 'true') {
        this.unmount();
        this.removeAttribute('data-rendered');
      }
    }

    #stopWatching(): void {
      this.#observer?.disconnect();
      this.#observer = undefined;
      waitingUntilVisible.delete(this);
    }
  }

  try {
    customElements.define(tag, ComponentElement);
  } catch (error) {
    // A tag that is not a valid custom element name (`oc.conf.tag`): elements render through `oc.renderUnloadedComponents` only.
    console.error(error);
  }
}
