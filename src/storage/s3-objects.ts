import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { isMissingObject, storageUnavailable, withDeadline } from './storage-fault';

/** The most keys one listing call answers (S3's own page). */
const LIST_PAGE = 1000;

export interface ListedObject {
  key: string;
  lastModified: Date;
}

export interface S3ObjectsOptions {
  bucket: string;
  /** Deadline of one storage call (a multipart upload gets one per part). */
  timeoutMs: number;
  /** Files at least this large go up as multipart uploads, in parts of this size (S3's minimum part is 5 MiB). */
  multipartBytes: number;
}

/**
 * The few object operations the S3 storage needs, each under a deadline, each failure of the
 * store turned into STORAGE_UNAVAILABLE. A missing object is an answer (undefined), not a failure.
 */
export class S3Objects {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #timeoutMs: number;
  readonly #multipartBytes: number;

  constructor(client: S3Client, options: S3ObjectsOptions) {
    this.#client = client;
    this.#bucket = options.bucket;
    this.#timeoutMs = options.timeoutMs;
    this.#multipartBytes = options.multipartBytes;
  }

  async get(key: string): Promise<Buffer | undefined> {
    return this.#call(async (abortSignal) => {
      try {
        const answer = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: key }), { abortSignal });
        return Buffer.from(await answer.Body!.transformToByteArray());
      } catch (error) {
        if (isMissingObject(error)) return undefined;
        throw error;
      }
    });
  }

  async exists(key: string): Promise<boolean> {
    return this.#call(async (abortSignal) => {
      try {
        await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }), { abortSignal });
        return true;
      } catch (error) {
        if (isMissingObject(error)) return false;
        throw error;
      }
    });
  }

  /**
   * Writes one object. With `ifNoneMatch` the store refuses to replace an existing object (where
   * it honours the condition); the refusal is thrown as the SDK's error for the caller to read.
   */
  async put(key: string, body: Buffer, options: { ifNoneMatch?: boolean; contentType?: string } = {}): Promise<void> {
    const params = { Bucket: this.#bucket, Key: key, Body: body, ContentType: options.contentType, IfNoneMatch: options.ifNoneMatch ? '*' : undefined };
    if (body.length >= this.#multipartBytes && !options.ifNoneMatch) {
      const parts = Math.ceil(body.length / this.#multipartBytes);
      await this.#call(async (abortSignal) => {
        const upload = new Upload({ client: this.#client, params, partSize: this.#multipartBytes, queueSize: 2, leavePartsOnError: false });
        abortSignal.addEventListener('abort', () => void upload.abort().catch(() => {}), { once: true });
        await upload.done();
      }, this.#timeoutMs * (parts + 1));
      return;
    }
    await this.#call(async (abortSignal) => {
      await this.#client.send(new PutObjectCommand(params), { abortSignal });
    }, undefined, { rethrowAnswers: options.ifNoneMatch === true });
  }

  /**
   * Every object under `prefix` (paged through ListObjectsV2), or with `delimiter` the folders under
   * it; with `startAfter`, only the keys sorting after it (the store skips the others itself); with
   * `limit`, the first that many objects only.
   */
  async list(prefix: string, delimiter?: string, startAfter?: string, limit = Infinity): Promise<{ objects: ListedObject[]; folders: string[] }> {
    const objects: ListedObject[] = [];
    const folders: string[] = [];
    let token: string | undefined;
    do {
      const MaxKeys = Number.isFinite(limit) ? Math.min(LIST_PAGE, limit - objects.length) : undefined;
      const page = await this.#call((abortSignal) =>
        this.#client.send(new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: prefix, Delimiter: delimiter, StartAfter: startAfter, ContinuationToken: token, MaxKeys }), { abortSignal }),
      );
      for (const item of page.Contents ?? []) if (item.Key) objects.push({ key: item.Key, lastModified: item.LastModified ?? new Date(0) });
      for (const item of page.CommonPrefixes ?? []) if (item.Prefix) folders.push(item.Prefix);
      token = page.IsTruncated && objects.length < limit ? page.NextContinuationToken : undefined;
    } while (token);
    // A store that ignores MaxKeys answers no more for it.
    return { objects: objects.slice(0, limit), folders };
  }

  /** Deletes what it can; used where a leftover is harmless (a publish that did not commit, old catalog records). */
  async deleteQuietly(keys: string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += 1000) {
      const batch = keys.slice(start, start + 1000).map((Key) => ({ Key }));
      await this.#call((abortSignal) => this.#client.send(new DeleteObjectsCommand({ Bucket: this.#bucket, Delete: { Objects: batch, Quiet: true } }), { abortSignal })).catch(
        () => {},
      );
    }
  }

  /**
   * One storage call under its deadline. Failures become STORAGE_UNAVAILABLE, except (with
   * `rethrowAnswers`) an HTTP answer of the store, which the caller interprets (a refused condition).
   */
  async #call<T>(operation: (signal: AbortSignal) => Promise<T>, timeoutMs = this.#timeoutMs, options: { rethrowAnswers?: boolean } = {}): Promise<T> {
    try {
      return await withDeadline(timeoutMs, operation);
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (options.rethrowAnswers && status !== undefined && status < 500) throw error;
      throw storageUnavailable(error, timeoutMs);
    }
  }
}
