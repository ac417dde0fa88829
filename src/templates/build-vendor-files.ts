import path from 'node:path';
import { build } from 'esbuild';
import { REGISTRY_MODULES, templateFile } from './bundle-view';
import { VENDOR_DIR } from './vendor-files';

/**
 * The runtimes the registry serves once per page at `/oc-client/vendor/<file>`, for the template
 * types whose views share one (no CDN: pages may be on a closed network).
 */
const VENDOR_ENTRIES: Record<string, { entry: string; alias?: Record<string, string> }> = {
  'react.js': {
    entry: templateFile('react', 'vendor-entry.js'),
    alias: { react: path.join(REGISTRY_MODULES, 'react-19'), 'react-dom': path.join(REGISTRY_MODULES, 'react-dom-19') },
  },
  'handlebars.js': { entry: templateFile('handlebars', 'vendor-entry.js') },
};

/** Bundles each vendor runtime into one minified script (part of `npm run build`). */
export async function buildVendorFiles(): Promise<void> {
  for (const [file, { entry, alias }] of Object.entries(VENDOR_ENTRIES)) {
    await build({
      entryPoints: [entry],
      outfile: path.join(VENDOR_DIR, file),
      bundle: true,
      minify: true,
      format: 'iife',
      platform: 'browser',
      target: ['es2020'],
      alias,
      define: { 'process.env.NODE_ENV': '"production"' },
      legalComments: 'none',
      logLevel: 'warning',
    });
  }
}

if (require.main === module) {
  buildVendorFiles().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
