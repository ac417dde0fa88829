import type { GetDataOptions, Oc } from './oc-global';
import { settingsOf, UNRENDERED_JSON } from './settings';

/** OC's props that views receive, left out of what `oc.getAction` answers. */
const VIEW_PROPS = ['_staticPath', '_baseUrl', '_componentName', '_componentVersion'];

/**
 * `oc.getData({baseUrl, name, version, parameters, action?}, callback)`: the component's data
 * without rendering it, through the batch route (`POST /`), or, with `action`, the action's result
 * (`POST /~actions/<action>/<name>/<version>`). A failure is an `Error` carrying the registry's
 * sentence (or `details.message`), its `code`, `status` and `details`' own fields.
 */
export function createGetData(oc: Oc): Oc['getData'] {
  return (options, callback = () => {}) => {
    const { version, baseUrl, name, action } = options;
    if (!version) throw new Error('version parameter is required');
    if (!baseUrl) throw new Error('baseUrl parameter is required');
    if (!name) throw new Error('name parameter is required');
    const settings = settingsOf(oc);
    const parameters = { ...settings.globalParameters, ...options.parameters };
    const url = action ? `${withSlash(baseUrl)}~actions/${encodeURIComponent(action)}/${encodeURIComponent(name)}/${encodeURIComponent(version)}` : baseUrl;
    const body = action ? parameters : { components: [{ name, version, parameters }] };
    fetch(url, {
      method: 'POST',
      headers: { Accept: UNRENDERED_JSON, 'Content-Type': 'application/json', ...settings.globalHeaders },
      body: JSON.stringify(body),
      signal: options.signal,
    })
      .then((response) => response.json())
      .then((answer: unknown) => {
        const item = action ? answer : Array.isArray(answer) ? (answer[0] as { response?: unknown } | undefined)?.response : answer;
        const result = (item ?? {}) as { error?: unknown; details?: unknown; data?: unknown };
        if (result.error) return callback(errorOf(result), undefined);
        callback(null, result.data);
      })
      .catch((error: unknown) => callback(error));
  };
}

/** `oc.getAction({component, action, parameters?})`: a promise of the action's result; version and base URL default to the rendered component's. */
export function createGetAction(oc: Oc): Oc['getAction'] {
  return (options) =>
    new Promise((resolve, reject) => {
      const known = oc.renderedComponents[options.component];
      const origin = typeof known === 'string' ? { version: known } : (known ?? {});
      const request: GetDataOptions = { json: true, name: options.component, ...origin, ...options };
      oc.getData(request, (error, data) => {
        if (error) return reject(error);
        // Template types that wrap their model (`{component: {props}}`) answer the props; others the result itself.
        const props = (data as { component?: { props?: Record<string, unknown> } } | undefined)?.component?.props;
        if (!props) return resolve(data);
        resolve(Object.fromEntries(Object.entries(props).filter(([key]) => !VIEW_PROPS.includes(key))));
      });
    });
}

function errorOf(answer: { error?: unknown; details?: unknown; code?: unknown; status?: unknown }): Error {
  const details = answer.details;
  const detailsObject = details && typeof details === 'object' ? (details as Record<string, unknown>) : undefined;
  const message = typeof details === 'string' ? details : typeof detailsObject?.message === 'string' ? detailsObject.message : String(answer.error);
  const error = new Error(message);
  if (typeof detailsObject?.stack === 'string') error.stack = detailsObject.stack;
  const extra: Record<string, unknown> = { ...(detailsObject?.originalError as object | undefined), ...detailsObject };
  delete extra.message;
  delete extra.stack;
  if (answer.code !== undefined) extra.code = answer.code;
  if (detailsObject) extra.details = detailsObject;
  return Object.assign(error, extra);
}

const withSlash = (url: string): string => (url.endsWith('/') ? url : `${url}/`);
