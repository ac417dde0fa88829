import type { Catalog } from './catalog';

/**
 * Refreshes the catalog from storage every `intervalMs`, counted from the end of the previous
 * refresh: a slow storage delays the next poll instead of piling polls on top of each other.
 * Answers the function that stops polling.
 */
export function pollStorage(catalog: Catalog, intervalMs: number, onError: (error: unknown) => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = () => {
    if (!stopped) timer = setTimeout(poll, intervalMs).unref();
  };
  const poll = () => {
    catalog.refresh().catch(onError).finally(schedule);
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
