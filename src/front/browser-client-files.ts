import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/** Where `npm run build` writes the browser client: `dist/browser-client/` (this file runs from `dist/src/front/`). */
const OUT_DIR = path.join(__dirname, '..', '..', 'browser-client');
const REPO_ROOT = path.join(__dirname, '..', '..', '..');

export interface ServedFile {
  content: Buffer;
  /** Strong ETag: the content's sha256, quoted. */
  etag: string;
}

export interface BrowserClient {
  script: ServedFile;
  sourceMap: ServedFile;
  /** Short hash of the script; `/oc-client/client.js?v=<version>` may be cached for good. */
  version: string;
}

let loaded: BrowserClient | undefined;

/** The built browser client, read once per process. */
export function loadBrowserClient(): BrowserClient {
  if (loaded) return loaded;
  const read = (name: string): ServedFile => {
    let content: Buffer;
    try {
      content = readFileSync(path.join(OUT_DIR, name));
    } catch {
      throw new Error(`The browser client (${name}) is not built: run npm run build.`);
    }
    return { content, etag: `"${createHash('sha256').update(content).digest('hex').slice(0, 32)}"` };
  };
  const script = read('client.js');
  loaded = { script, sourceMap: read('client.js.map'), version: script.etag.slice(1, 17) };
  return loaded;
}

/** Bundles `src/browser-client/` into one minified script with its source map (part of `npm run build`). */
export async function buildBrowserClient(): Promise<void> {
  const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  await build({
    entryPoints: [path.join(REPO_ROOT, 'src', 'browser-client', 'index.ts')],
    outfile: path.join(OUT_DIR, 'client.js'),
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
