import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { TesseraError } from '../errors/errors';
import type { S3Objects } from './s3-objects';
import { isPreconditionFailed } from './storage-fault';

export interface CommitOptions {
  /** Key prefix of the storage ('' or ending with `/`). */
  prefix: string;
  /** Claim protocol: how long a publisher waits after its claim before reading who came first. */
  settleMs: number;
  /** Claim protocol: a claim this much older than one's own is a publisher that died; ignored. */
  leaseMs: number;
}

export const alreadyExists = (name: string, version: string): TesseraError =>
  new TesseraError('ALREADY_EXISTS', `${name}@${version} is already published; versions are immutable.`);

/**
 * Writes a version's commit marker so that of concurrent publishers exactly one succeeds and the
 * others get ALREADY_EXISTS. Two ways, chosen once by asking the store:
 *
 * - **Conditional write** (AWS S3, Ceph RGW, SeaweedFS, MinIO): the marker is written with
 *   `If-None-Match: *`; the store itself refuses every writer but the first (412).
 * - **Claims** (stores that ignore the condition): each publisher writes a claim object, waits
 *   `settleMs`, lists the claims and goes on only if its own is the earliest by the store's
 *   `LastModified` (then key). A later claim always carries a later time, so once the settle delay
 *   is past the store's time resolution (1 s on S3) plus one write, every publisher sees the same
 *   earliest claim: exactly one writes the marker. This needs read-after-write consistent listing
 *   (every S3-compatible store named above has it) and one clock for `LastModified`.
 */
export class VersionCommitter {
  readonly #objects: S3Objects;
  readonly #options: CommitOptions;
  #conditional: Promise<boolean> | undefined;

  constructor(objects: S3Objects, options: CommitOptions) {
    this.#objects = objects;
    this.#options = options;
  }

  async commit(name: string, version: string, markerKey: string, marker: Buffer, uploadId: string): Promise<void> {
    if (!(await this.createOnce(markerKey, marker, uploadId))) throw alreadyExists(name, version);
  }

  /**
   * Writes `key` only when no object is there, deciding racing writers as for a version's marker:
   * answers true to exactly one of them. `writerId` names this writer's claim (unique per attempt).
   */
  async createOnce(key: string, content: Buffer, writerId: string): Promise<boolean> {
    if (await this.#honoursConditionalWrites()) {
      try {
        await this.#objects.put(key, content, { ifNoneMatch: true, contentType: 'application/json' });
        return true;
      } catch (error) {
        if (isPreconditionFailed(error)) return false;
        throw error;
      }
    }
    return this.#createByClaims(key, content, writerId);
  }

  /** Which way this store commits: conditional writes or claims (see the class). */
  get mode(): Promise<'conditional-write' | 'claims'> {
    return this.#honoursConditionalWrites().then((yes) => (yes ? 'conditional-write' : 'claims'));
  }

  async #createByClaims(key: string, content: Buffer, writerId: string): Promise<boolean> {
    const folder = `${this.#options.prefix}claims/${key.slice(this.#options.prefix.length)}/`;
    const claimKey = `${folder}${writerId}`;
    const started = performance.now();
    await this.#objects.put(claimKey, Buffer.alloc(0));
    try {
      await sleep(this.#options.settleMs);
      const { objects: claims } = await this.#objects.list(folder);
      const own = claims.find((claim) => claim.key === claimKey);
      if (!own) throw new TesseraError('STORAGE_UNAVAILABLE', 'The component storage lost a write of this publish; retry it.');
      const live = claims.filter((claim) => own.lastModified.getTime() - claim.lastModified.getTime() <= this.#options.leaseMs);
      live.sort((a, b) => a.lastModified.getTime() - b.lastModified.getTime() || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      if (live[0]!.key !== claimKey || (await this.#objects.exists(key))) return false;
      // Past half its lease another publisher could take this one for dead: give up rather than race it.
      if (performance.now() - started > this.#options.leaseMs / 2) {
        throw new TesseraError('STORAGE_UNAVAILABLE', 'The component storage answered too slowly to commit this publish safely; retry it.');
      }
      await this.#objects.put(key, content, { contentType: 'application/json' });
      return true;
    } finally {
      await this.#objects.deleteQuietly([claimKey]);
    }
  }

  /**
   * Asked once: writes a probe object twice with `If-None-Match: *`. A store that honours the
   * condition refuses the second write; one that ignores it (or rejects the header) does not.
   */
  #honoursConditionalWrites(): Promise<boolean> {
    this.#conditional ??= this.#probe().catch((error: unknown) => {
      this.#conditional = undefined;
      throw error;
    });
    return this.#conditional;
  }

  async #probe(): Promise<boolean> {
    const key = `${this.#options.prefix}.conditional-write-probe/${randomUUID()}`;
    try {
      await this.#objects.put(key, Buffer.from('1'), { ifNoneMatch: true });
    } catch (error) {
      if (error instanceof TesseraError) throw error;
      return false;
    }
    try {
      await this.#objects.put(key, Buffer.from('2'), { ifNoneMatch: true });
      return false;
    } catch (error) {
      if (isPreconditionFailed(error)) return true;
      if (error instanceof TesseraError) throw error;
      return false;
    } finally {
      await this.#objects.deleteQuietly([key]);
    }
  }
}
