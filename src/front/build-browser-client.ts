import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { BROWSER_CLIENT_DIR } from './browser-client-files';

const REPO_ROOT = path.join(__dirname, '..', '..', '..');

/** Bundles `src/browser-client/` into one minified script with its source map (part of `npm run build`). */
async function buildBrowserClient(): Promise<void> {
  const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  await build({
    entryPoints: [path.join(REPO_ROOT, 'src', 'browser-client', 'index.ts')],
    outfile: path.join(BROWSER_CLIENT_DIR, 'client.js'),
    bundle: true,
    minify: true,
    format: 'iife',
    // Browsers with custom elements, private fields and optional chaining: every current one.
    target: ['es2022'],
    sourcemap: 'linked',
    sourcesContent: true,
    legalComments: 'none',
    define: { __CLIENT_VERSION__: JSON.stringify(version) },
    logLevel: 'warning',
  });
}

if (require.main === module) {
  buildBrowserClient().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
