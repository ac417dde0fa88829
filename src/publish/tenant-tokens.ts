import { createHash, timingSafeEqual } from 'node:crypto';
import type { PublishToken } from '../config/config';
import { matchesNamePattern } from '../config/name-pattern';

/** The sha256 (lowercase hex) under which a publish token is configured. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The configured token an `Authorization: Bearer <token>` header presents, or undefined. Hashes are
 * compared in constant time, and every configured hash is compared, so the answer's timing says
 * nothing about which token, if any, matched.
 */
export function tokenOf(authorization: string | undefined, tokens: readonly PublishToken[]): PublishToken | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const presented = Buffer.from(hashToken(match[1]!), 'hex');
  let found: PublishToken | undefined;
  for (const token of tokens) {
    const configured = Buffer.from(token.sha256, 'hex');
    if (configured.length === presented.length && timingSafeEqual(configured, presented) && !found) found = token;
  }
  return found;
}

/** Whether a component name is inside the token's scope (`*` matches any run of characters). */
export function mayPublish(token: PublishToken, name: string): boolean {
  return matchesNamePattern(token.components, name);
}
