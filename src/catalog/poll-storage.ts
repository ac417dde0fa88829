import type { Catalog } from './catalog';

/**
 * Refreshes the catalog (and what else reads storage at each poll, as tenants do) from storage every `intervalMs`, counted from the end of the previous
 * refresh: a slow storage delays the next poll instead of piling polls on top of each other.
 * Answers the function that stops polling.
 */
export function pollStorage(catalog: Pick<Catalog, 'refresh'>, intervalMs: number, onError: (error: unknown) => void): () => void {
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
