import { createHash } from 'node:crypto';

/** Content hash used for template keys and server bundle hashes (hex, like OC's `hashKey`). */
export function contentHash(content: string | Buffer): string {
  return createHash('sha1').update(content).digest('hex');
}
