import { dispatchError, dispatchRendered } from './dom-events';
import type { Oc, RenderedComponentData, RenderFailure } from './oc-global';
import { reanimateScripts } from './rendered-html';
import { settingsOf } from './settings';

type Target = HTMLElement | ArrayLike<HTMLElement>;

/** A jQuery object or the element itself. */
const elementOf = (target: Target): HTMLElement => (target as ArrayLike<HTMLElement>)[0] ?? (target as HTMLElement);

/**
 * Rendering elements: `oc.renderNestedComponent`, `oc.renderUnloadedComponents` and `oc.load`.
 * An element goes `data-rendering="true"` → `data-rendered="true"`, or → `data-failed="true"` with
 * its content emptied. Tenant HTML only ever goes inside the element it was asked for.
 */
export function createElementRendering(oc: Oc, tag: string, nonce: string | undefined, waitingUntilVisible: WeakSet<Element>) {
  // What waits on the renders this client started, so nothing needs to poll for them.
  const inFlight = new WeakMap<HTMLElement, Array<() => void>>();

  /** `callback` once the element's render settled: the one under way, or one started now. */
  const afterRender = (element: HTMLElement, callback: () => void): void => {
    const waiting = inFlight.get(element);
    if (waiting) waiting.push(callback);
    else oc.renderNestedComponent(element, callback);
  };

  const renderNestedComponent: Oc['renderNestedComponent'] = (target, callback) =>
    oc.ready(() => {
      const element = elementOf(target);
      if (element.getAttribute('data-rendered') === 'true') return callback();
      // As OC's client does for a render under way: look again when it settled, and render again if it failed.
      const waiting = inFlight.get(element);
      if (waiting) return void waiting.push(() => oc.renderNestedComponent(element, callback));
      const settings = settingsOf(oc);
      // Another script is rendering it: look again later (OC's behaviour).
      if (element.getAttribute('data-rendering') === 'true') return void setTimeout(() => oc.renderNestedComponent(element, callback), settings.pollingInterval);

      inFlight.set(element, [callback]);
      element.setAttribute('data-rendering', 'true');
      // The loading message is the page's own configuration, not tenant content.
      if (settings.showLoader) element.innerHTML = `<div class="oc-loading">${settings.loadingMessage}</div>`;
      oc.renderByHref({ href: element.getAttribute('href') ?? '', id: element.getAttribute('id'), element }, (error, data, failure) => {
        const callbacks = inFlight.get(element) ?? [callback];
        inFlight.delete(element);
        if (error || !data) fail(element, error, data, failure);
        else show(element, data);
        for (const done of callbacks) done();
      });
    });

  function show(element: HTMLElement, data: RenderedComponentData): void {
    const { mount, ...payload } = data;
    if (data.id !== undefined && data.id !== null) element.setAttribute('id', String(data.id));
    element.setAttribute('data-rendered', 'true');
    element.setAttribute('data-rendering', 'false');
    if (data.version !== undefined) element.setAttribute('data-version', data.version);
    if (data.ocId !== undefined) element.setAttribute('data-id', String(data.ocId));
    if (typeof data.html === 'string') {
      element.innerHTML = data.html;
      reanimateScripts(element, nonce);
    }
    if (data.key) element.setAttribute('data-hash', data.key);
    if (data.name) {
      element.setAttribute('data-name', data.name);
      oc.renderedComponents[data.name] = data.baseUrl ? { version: data.version, baseUrl: data.baseUrl } : { version: data.version };
    }
    mount?.(element);
    if (data.name) oc.events.fire('oc:rendered', { ...payload, id: data.ocId, element });
    dispatchRendered(element, data.name, data.version);
  }

  function fail(element: HTMLElement, error: unknown, data: RenderedComponentData | null | undefined, failure: RenderFailure | undefined): void {
    element.setAttribute('data-rendering', 'false');
    element.setAttribute('data-rendered', 'false');
    element.setAttribute('data-failed', 'true');
    element.innerHTML = '';
    oc.events.fire('oc:failed', { originalError: error, data, component: element });
    dispatchError(element, failure ?? { error: String(error) });
    console.error(error);
  }

  const renderUnloadedComponents: Oc['renderUnloadedComponents'] = () =>
    oc.ready(() => {
      // Lazy elements not yet seen are left to their element, which renders them when they show.
      const pending = [...document.querySelectorAll<HTMLElement>(`${tag}:not([data-rendered="true"]):not([data-failed="true"])`)].filter(
        (element) => !waitingUntilVisible.has(element),
      );
      let left = pending.length;
      for (const element of pending) {
        afterRender(element, () => {
          left -= 1;
          // Rendered HTML may hold components of its own; look again once this round is done.
          if (left === 0 && pending.some((done) => done.getAttribute('data-rendered') === 'true')) oc.renderUnloadedComponents();
        });
      }
    });

  const load: Oc['load'] = (placeholder, href, callback) =>
    oc.ready(() => {
      if (!placeholder) return;
      const element = document.createElement(tag);
      element.setAttribute('href', href);
      elementOf(placeholder).replaceChildren(element);
      afterRender(element, () => callback?.(element));
    });

  return { renderNestedComponent, renderUnloadedComponents, load };
}
