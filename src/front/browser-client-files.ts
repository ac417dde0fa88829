import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Where `npm run build` writes the browser client: `dist/browser-client/` (this file runs from `dist/src/front/`). */
export const BROWSER_CLIENT_DIR = path.join(__dirname, '..', '..', 'browser-client');

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
      content = readFileSync(path.join(BROWSER_CLIENT_DIR, name));
    } catch {
      throw new Error(`The browser client (${name}) is not built: run npm run build.`);
    }
    return { content, etag: `"${createHash('sha256').update(content).digest('hex').slice(0, 32)}"` };
  };
  const script = read('client.js');
  loaded = { script, sourceMap: read('client.js.map'), version: script.etag.slice(1, 17) };
  return loaded;
}
