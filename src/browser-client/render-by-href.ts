import { fetchAnswer } from './fetch-answer';
import type { Oc, RenderByHrefCallback, RenderByHrefOptions, RenderedComponentData } from './oc-global';
import { unwrapRendered } from './rendered-html';
import { renderTemplate } from './render-view';
import { retryDelay } from './retry-policy';
import { settingsOf, UNRENDERED_JSON } from './settings';
import type { TemplateTypes } from './template-types';
import { normaliseTemplateType } from './templates';
import type { ComponentAnswer, ViewProps } from './types';

/**
 * `oc.renderByHref(href | {href, id, element}, callback)`: asks the registry for the component
 * unrendered and renders it with its template type, or takes the HTML when the registry answers
 * rendered. Network failures and 5xx are retried with backoff (`retryLimit` times); a 4xx is final.
 * The callback gets OC's `(error sentence, data)`, and a third argument saying why it failed.
 */
export function createRenderByHref(oc: Oc, types: TemplateTypes, tag: string): Oc['renderByHref'] {
  return (hrefOrOptions, retryNumberOrCallback, maybeCallback) => {
    const callback = (maybeCallback ?? retryNumberOrCallback) as RenderByHrefCallback;
    const options: RenderByHrefOptions = typeof hrefOrOptions === 'string' ? { href: hrefOrOptions } : (hrefOrOptions ?? { href: '' });
    const ocId = Math.floor(Math.random() * 9999999999);
    const id = options.id || ocId;
    const { href } = options;
    let retriesLeft = settingsOf(oc).retryLimit;

    const succeed = (answer: ComponentAnswer, html: string, key: string | undefined, mount?: RenderedComponentData['mount']) =>
      callback(null, { id, ocId, html, baseUrl: answer.baseUrl, key, version: answer.version, name: answer.name, mount });

    const attempt = async (retryNumber: number, accept: string): Promise<void> => {
      const settings = settingsOf(oc);
      const query = new URLSearchParams({ ...stringValues(settings.globalParameters), ...(settings.sendRetryNumber ? { __oc_Retry: String(retryNumber) } : {}) }).toString();
      const url = query ? `${href}${href.includes('?') ? '&' : '?'}${query}` : href;
      const result = await fetchAnswer(url, { Accept: accept, ...settings.globalHeaders });
      if (!result.ok) {
        oc.events.fire('oc:error', result.raw);
        if (result.retryable && retriesLeft > 0) {
          retriesLeft -= 1;
          setTimeout(() => void attempt(retryNumber + 1, accept), retryDelay(retryNumber, settings.retryInterval));
          return;
        }
        const sentence = result.retryable ? `Failed to load ${href} component ${settings.retryLimit + 1} times. Giving up` : result.failure.error;
        return callback(sentence, undefined, result.failure);
      }
      const answer = result.answer;
      if (answer.renderMode === 'rendered' || (typeof answer.html === 'string' && !answer.template)) {
        const { html, key } = unwrapRendered(answer.html ?? '', tag);
        return succeed(answer, html, key);
      }
      const template = answer.template;
      if (!template) return callback(`Error rendering component: ${href}, error: the answer has neither html nor template`, undefined, { error: 'The registry answered without html or template.' });
      // A type this page cannot render is rendered by the registry instead.
      if (accept === UNRENDERED_JSON && !types.rendererOf(normaliseTemplateType(template.type))) return attempt(retryNumber, 'application/json');
      // Server logic that returned no model: nothing to render (decisions §4).
      if (answer.data === null) return succeed(answer, '', template.key);
      renderTemplate(oc, types, template, propsOf(answer), (error, view) => {
        if (error !== null) {
          const failure = { error: `The view of ${answer.name ?? href} failed in the browser: ${error}`, name: answer.name, version: answer.version };
          return callback(`Error rendering component: ${answer.href ?? href}, error: ${error}`, undefined, failure);
        }
        if (typeof view === 'string') succeed(answer, view, template.key);
        else succeed(answer, view!.html, template.key, view!.mount);
      });
    };

    oc.ready(() => {
      if (!href) return callback('Error rendering component: Href parameter missing', undefined, { error: 'The component element has no href.' });
      const first = options.retryNumber ?? (typeof retryNumberOrCallback === 'number' ? retryNumberOrCallback : 0);
      void attempt(first, UNRENDERED_JSON);
    });
  };
}

/** The view's props: the model plus OC's `_staticPath`, `_baseUrl`, `_componentName`, `_componentVersion` (decisions §4). */
function propsOf(answer: ComponentAnswer): ViewProps {
  const src = answer.template?.src ?? '';
  return {
    ...(answer.data ?? {}),
    _staticPath: src.slice(0, src.lastIndexOf('/') + 1),
    _baseUrl: answer.baseUrl,
    _componentName: answer.name,
    _componentVersion: answer.version,
  };
}

const stringValues = (values: Record<string, unknown>): Record<string, string> => Object.fromEntries(Object.entries(values).map(([key, value]) => [key, String(value)]));
