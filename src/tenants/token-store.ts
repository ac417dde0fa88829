import { randomBytes } from 'node:crypto';
import { TesseraError } from '../errors/errors';
import { hashToken } from './hash-token';
import type { StorageAdapter } from '../storage/storage-adapter';
import { parseRecord, revocationKey, tokenKey, type StoredToken, type TokenRevocation } from './tenant-records';

/** A token as created: the secret is answered this once and never stored. */
export interface CreatedToken extends StoredToken {
  token: string;
}

/** Secrets carry a recognisable prefix (secret scanners can look for it) and 256 random bits. */
const SECRET_PREFIX = 'tsr_';

/** A new token for `tenant`, stored as the sha256 of its secret under a fresh random id. */
export async function createToken(storage: StorageAdapter, tenant: string, by: string): Promise<CreatedToken> {
  const secret = `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
  const stored: StoredToken = { id: randomBytes(8).toString('hex'), tenant, sha256: hashToken(secret), createdAt: new Date().toISOString(), createdBy: by };
  if (!(await storage.createRecord(tokenKey(stored.id), Buffer.from(JSON.stringify(stored))))) {
    // 64 random bits taken already: a store that lost writes or a broken random source, not bad luck.
    throw new Error(`A token id was drawn twice (${stored.id}).`);
  }
  return { ...stored, token: secret };
}

/**
 * Revokes a token: its revocation record, written once (a second revoke answers the first's, `created` false). The
 * token record stays, so listings and the audit log still name it.
 */
export async function revokeToken(storage: StorageAdapter, id: string, by: string): Promise<{ revocation: TokenRevocation; created: boolean }> {
  if (!(await storage.readRecord(tokenKey(id)))) throw new TesseraError('NOT_FOUND', `No token has the id "${id}".`);
  const revocation: TokenRevocation = { id, revokedAt: new Date().toISOString(), revokedBy: by };
  if (await storage.createRecord(revocationKey(id), Buffer.from(JSON.stringify(revocation)))) return { revocation, created: true };
  return { revocation: (await readRevocation(storage, id)) ?? revocation, created: false };
}

/** The revocation of a token read from storage itself, not from a replica's last poll. */
export async function readRevocation(storage: StorageAdapter, id: string): Promise<TokenRevocation | undefined> {
  return parseRecord<TokenRevocation>(await storage.readRecord(revocationKey(id)));
}
