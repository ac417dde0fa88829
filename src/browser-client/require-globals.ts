import type { Oc } from './oc-global';
import type { ScriptLoader } from './script-loader';
import type { External } from './types';

type Done = (value: unknown) => void;

/**
 * `oc.require([namespace], url, callback)`: answers the global at `namespace` (`['oc', 'components', key]`),
 * loading `url` first when it is not there yet. The callback always runs, with `undefined` when the
 * script could not be loaded or did not define the global, so a render never waits forever.
 */
export function createRequire(): Oc['require'] {
  return (nameSpace, url, callback) => {
    const path = callback === undefined ? undefined : typeof nameSpace === 'string' ? [nameSpace] : nameSpace;
    const src = (callback === undefined ? nameSpace : url) as string;
    const done = (callback ?? url) as Done;
    const lookup = (): unknown => {
      if (!path) return undefined;
      let value: unknown = window;
      for (const key of path) {
        value = (value as Record<string, unknown>)[key];
        if (!value) return undefined;
      }
      return value;
    };
    const present = lookup();
    if (present) return done(present);
    let called = false;
    const finish = () => {
      if (called) return;
      called = true;
      done(lookup());
    };
    // Read at each call: pages (and OC's own test page) replace `ljs.load`.
    const loader = (window as unknown as { ljs: ScriptLoader }).ljs;
    const loading: unknown = loader.load(src, finish);
    if (loading instanceof Promise) loading.catch(finish);
  };
}

/** `oc.requireSeries(externals, callback)`: loads each external in order and answers their globals. */
export function createRequireSeries(oc: Oc): Oc['requireSeries'] {
  const series: Oc['requireSeries'] = (toLoad, loadedOrCallback, callback) => {
    const done = (callback ?? loadedOrCallback) as (loaded: unknown[]) => void;
    const loaded = callback ? (loadedOrCallback as unknown[]) : [];
    const [first, ...rest] = toLoad ?? [];
    if (first === undefined) return done(loaded);
    const external: External = typeof first === 'string' ? { url: first } : first;
    oc.require(external.global, external.url, (value) => series(rest, [...loaded, value], done));
  };
  return series;
}
