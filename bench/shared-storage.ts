import { benchComponent, demoComponent, packageInto } from './bench-storage';
import { ocAuthoredCopies } from './oc/oc-authored-copies';

/** The components the render, batch, nested, against-oc, limits and template render scenarios request. */
const DEMOS_USED = ['hello-world', 'weather-badge', 'legacy-clock', 'static-banner', 'esm-counter', 'react-toggle'];
const BENCH_COMPONENTS_USED = ['bench-nested-parent', 'bench-nested-badge'];

/**
 * Packages into `storagePath` what the shared registry serves: those components, and the
 * OC-authored greetings (against-oc's batches) copied into `copiesPath` and packaged by Tessera's
 * own packager, as `tessera publish` does.
 */
export async function packageSharedStorage(storagePath: string, copiesPath: string): Promise<void> {
  const ocAuthored = await ocAuthoredCopies(copiesPath);
  await packageInto(storagePath, [...DEMOS_USED.map(demoComponent), ...BENCH_COMPONENTS_USED.map(benchComponent), ...ocAuthored]);
}
