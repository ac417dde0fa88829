import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Where `npm run build` writes the vendor runtimes (build-vendor-files.ts): `dist/browser-client/vendor/`. */
export const VENDOR_DIR = path.join(__dirname, '..', '..', 'browser-client', 'vendor');

export interface VendorFile {
  content: Buffer;
  /** Strong ETag: the content's sha256, quoted. */
  etag: string;
}

const loaded = new Map<string, VendorFile>();

/** A built vendor runtime (`react.js`, `handlebars.js`), read once per process; undefined for any other name. */
export function vendorFile(name: string): VendorFile | undefined {
  if (!/^[a-z]+\.js$/.test(name)) return undefined;
  let file = loaded.get(name);
  if (!file) {
    let content: Buffer;
    try {
      content = readFileSync(path.join(VENDOR_DIR, name));
    } catch {
      return undefined;
    }
    file = { content, etag: `"${createHash('sha256').update(content).digest('hex').slice(0, 32)}"` };
    loaded.set(name, file);
  }
  return file;
}
