import * as esbuild from 'esbuild';
import { stopServerReader } from './read-server-definition';

/**
 * Ends the packager's helper processes once nothing more is to be packaged: esbuild's service
 * (about 16 MB resident) and the process that reads server bundles. A registry that packaged its
 * demo components at start keeps neither; the next packaging starts them again.
 */
export async function stopPackagerProcesses(): Promise<void> {
  stopServerReader();
  await esbuild.stop();
}
