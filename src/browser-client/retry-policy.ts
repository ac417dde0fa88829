/** The longest wait between two attempts, as a multiple of `retryInterval`. */
const MAX_BACKOFF_FACTOR = 8;

/**
 * Milliseconds before retry number `retry` (0 for the first): `retryInterval` doubling at each
 * retry up to 8 times itself, each drawn between half and all of that, so pages that failed
 * together during an outage do not come back together.
 */
export function retryDelay(retry: number, retryInterval: number): number {
  const ceiling = retryInterval * Math.min(2 ** retry, MAX_BACKOFF_FACTOR);
  return Math.max(1, Math.round(ceiling * (0.5 + Math.random() / 2)));
}

/** Network failures, unknown statuses and 5xx may pass; a 4xx answer is the registry's final word. */
export const isRetryable = (status: number | undefined): boolean => status === undefined || status >= 500;
