import { createHash } from 'node:crypto';

/** The sha256 (lowercase hex) under which a token is configured or stored: never the token itself. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
