import type { Oc } from './oc-global';

/**
 * `oc.conf` with its defaults, read at each use rather than once, so a page may change (or replace)
 * `oc.conf` after the client loaded.
 */
export function settingsOf(oc: Oc) {
  const conf = oc.conf ?? {};
  return {
    retryInterval: positive(conf.retryInterval, 1000),
    retryLimit: conf.retryLimit !== undefined && conf.retryLimit >= 0 ? conf.retryLimit : 30,
    sendRetryNumber: conf.retrySendNumber !== false,
    pollingInterval: positive(conf.pollingInterval, 500),
    showLoader: conf.disableLoader !== true,
    loadingMessage: conf.loadingMessage ?? '',
    manageLifecycles: conf.disableLifecycles !== true,
    globalParameters: conf.globalParameters ?? {},
    globalHeaders: (typeof conf.globalHeaders === 'function' ? conf.globalHeaders() : conf.globalHeaders) ?? {},
    debug: conf.debug === true,
  };
}

const positive = (value: number | undefined, fallback: number): number => (typeof value === 'number' && value > 0 ? value : fallback);

export const UNRENDERED_JSON = 'application/vnd.oc.unrendered+json';
