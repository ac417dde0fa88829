import path from 'node:path';
import type { RegistryConfig } from '../config/config';
import { formatPricePlugin } from './format-price-plugin';
import { DEMO_COMPONENTS_DIR } from './publish-demo-components';

/** The plugins the demo components declare: a registry serving the demo offers them. */
const DEMO_PLUGINS = [formatPricePlugin];

/**
 * Adds the demo's plugins to a configuration (`tessera start --with-demo`); a plugin the
 * configuration already has under the same name stands, as a configured plugin always replaces one
 * of the registry's.
 */
export function addDemoPlugins(config: RegistryConfig): void {
  for (const plugin of DEMO_PLUGINS) if (!config.plugins.some((configured) => configured.name === plugin.name)) config.plugins.push(plugin);
}

/** Whether a component folder is a demo component's (`tessera dev demo/components/price-tag`). */
export const isDemoFolder = (dir: string): boolean => path.dirname(path.resolve(dir)) === DEMO_COMPONENTS_DIR;
