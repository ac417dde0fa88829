import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The registry's own version (package.json): its browser client's and its API document's. */
export const REGISTRY_VERSION = (JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
