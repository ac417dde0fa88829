import * as esbuild from 'esbuild';

/**
 * Ends esbuild's service process (about 16 MB resident) once nothing more is to be packaged: a
 * registry that packaged its demo components at start keeps no idle bundler. The next build starts
 * another.
 */
export const stopBundler = (): Promise<void> => esbuild.stop();
