import { createBuild } from './build-tag';
import { defineComponentElement } from './component-element';
import { createEventBus } from './event-bus';
import { createGetAction, createGetData } from './get-data';
import { createHydrate } from './hydrate';
import type { Oc } from './oc-global';
import { createRenderByHref } from './render-by-href';
import { createElementRendering } from './render-element';
import { createRender } from './render-view';
import { createRequire, createRequireSeries } from './require-globals';
import { ScriptLoader } from './script-loader';
import { settingsOf } from './settings';
import { TemplateTypes } from './template-types';

declare const __CLIENT_VERSION__: string;

type PageWindow = Window & { oc?: Partial<Oc>; ljs?: ScriptLoader };

/**
 * Tessera's browser client (`GET /oc-client/client.js`): sets up `window.oc` with OC's API, defines
 * the `<oc-component>` element and renders the components already in the page. Loading it twice is
 * harmless: a page that has a ready `oc` keeps it.
 */
function start(page: PageWindow): void {
  const oc = (page.oc ?? {}) as Oc;
  page.oc = oc;
  if (oc.status) return;
  oc.status = 'loading';
  oc.conf = oc.conf ?? {};
  oc.cmd = oc.cmd ?? [];
  oc.renderedComponents = oc.renderedComponents ?? {};
  oc.clientVersion = __CLIENT_VERSION__;
  page.ljs = new ScriptLoader();

  const tag = oc.conf.tag || 'oc-component';
  const nonce = document.currentScript?.nonce || undefined;
  const types = new TemplateTypes();
  if (oc.conf.templates) types.register(oc.conf.templates, true);
  const waitingUntilVisible = new WeakSet<Element>();
  const elements = createElementRendering(oc, tag, nonce, waitingUntilVisible);

  oc.events = createEventBus(() => settingsOf(oc).debug);
  // Everything is in place once this script ran: `ready` callbacks run at once.
  oc.ready = (callback) => callback();
  oc.build = createBuild(tag);
  oc.require = createRequire();
  oc.requireSeries = createRequireSeries(oc);
  oc.render = createRender(oc, types);
  oc.renderByHref = createRenderByHref(oc, types, tag);
  oc.renderNestedComponent = elements.renderNestedComponent;
  oc.renderUnloadedComponents = elements.renderUnloadedComponents;
  oc.load = elements.load;
  oc.getData = createGetData(oc);
  oc.getAction = createGetAction(oc);
  oc.hydrate = createHydrate(oc, types);
  oc.addStylesToHead = (styles) => {
    const style = document.createElement('style');
    style.textContent = styles;
    if (nonce) style.setAttribute('nonce', nonce);
    document.head.appendChild(style);
  };
  oc.registerTemplates = (templates) => {
    types.register(templates, false);
    oc.renderUnloadedComponents();
    return types.registered;
  };

  defineComponentElement(oc, tag, waitingUntilVisible);
  oc.renderUnloadedComponents();
  oc.events.fire('oc:ready', oc);
  oc.status = 'ready';
  const queued = Array.isArray(oc.cmd) ? oc.cmd : [];
  oc.cmd = { push: (command: (oc: Oc) => void) => command(oc) };
  for (const command of queued) command(oc);
}

start(window as PageWindow);
