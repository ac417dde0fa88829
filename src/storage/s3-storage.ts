import { createHash, randomUUID } from 'node:crypto';
import { S3Client } from '@aws-sdk/client-s3';
import { TesseraError } from '../errors/errors';
import { alreadyExists, VersionCommitter } from './s3-commit';
import type { S3Location } from './s3-location';
import { S3Objects } from './s3-objects';
import { storageCorrupt } from './storage-fault';
import type { StorageAdapter } from './storage-adapter';
import type { StorageSettings } from './storage-settings';

/** What a version's commit marker holds: where its files are and what each must be. */
interface CommitMarker {
  upload: string;
  files: Record<string, { size: number; sha256: string }>;
}

export interface S3StorageOptions {
  /** Deadline of one storage call. */
  timeoutMs: number;
  /** Files from this size up are sent as multipart uploads, in parts of this size. Default 8 MiB. */
  multipartBytes?: number;
  /** Claim protocol timings, for stores that ignore conditional writes (see VersionCommitter). */
  settleMs?: number;
  leaseMs?: number;
  /** The SDK's environment (endpoint, region, keys) to configure the client from; this process's own when absent. */
  env?: Record<string, string>;
  /** The SDK client; by default one configured from `env`. A client given here is not in `settings`: other threads build theirs from `env`. */
  client?: S3Client;
}

/** Files of one publish go up this many at a time. */
const PARALLEL_UPLOADS = 4;

/**
 * Component versions in an S3-compatible bucket, for several replicas sharing one store:
 *
 * - `<prefix>packages/<name>/<version>/<upload>/<file>`: the files, under a key no other publish uses;
 * - `<prefix>versions/<name>/<version>.json`: the commit marker, written last, once, naming the
 *   upload and each file's size and sha256;
 * - `<prefix>catalog/<key>`: the records beside the versions (the catalog's journal and index, tenants, quotas, the audit log).
 *
 * Readers look for the marker only, so a version appears whole or not at all; a publish that
 * never committed leaves files no reader finds (deleted on failure when the store still answers).
 * Each file read is checked against the marker: a damaged object is STORAGE_CORRUPT, never served.
 */
export class S3Storage implements StorageAdapter {
  readonly settings: StorageSettings;
  readonly #client: S3Client;
  readonly #objects: S3Objects;
  readonly #committer: VersionCommitter;
  readonly #prefix: string;
  /** Markers of committed versions, which never change; absent ones are asked again. */
  readonly #markers = new Map<string, Promise<CommitMarker | undefined>>();

  constructor(location: S3Location, options: S3StorageOptions) {
    const { client, ...plain } = options;
    this.settings = { location: `s3://${location.bucket}/${location.prefix}`, ...plain };
    this.#client = client ?? createS3Client(options.timeoutMs, options.env);
    this.#prefix = location.prefix;
    this.#objects = new S3Objects(this.#client, { bucket: location.bucket, timeoutMs: options.timeoutMs, multipartBytes: options.multipartBytes ?? 8 * 1024 * 1024 });
    this.#committer = new VersionCommitter(this.#objects, { prefix: location.prefix, settleMs: options.settleMs ?? 2000, leaseMs: options.leaseMs ?? 60_000 });
  }

  /** How concurrent publishes of one version are decided on this store (asked of the store once). */
  get commitMode(): Promise<'conditional-write' | 'claims'> {
    return this.#committer.mode;
  }

  async listComponents(): Promise<string[]> {
    const root = `${this.#prefix}versions/`;
    const { folders } = await this.#objects.list(root, '/');
    return folders.map((folder) => folder.slice(root.length, -1)).sort();
  }

  async listVersions(name: string): Promise<string[]> {
    const folder = `${this.#prefix}versions/${name}/`;
    const { objects } = await this.#objects.list(folder);
    return objects.map((object) => object.key.slice(folder.length)).filter((key) => key.endsWith('.json') && !key.includes('/')).map((key) => key.slice(0, -'.json'.length));
  }

  async readFile(name: string, version: string, filePath: string): Promise<Buffer | undefined> {
    const marker = await this.#marker(name, version);
    const expected = marker && Object.hasOwn(marker.files, filePath) ? marker.files[filePath]! : undefined;
    if (!marker || !expected) return undefined;
    const content = await this.#objects.get(this.#fileKey(name, version, marker.upload, filePath));
    if (!content) throw storageCorrupt(name, version, `file "${filePath}"`, 'it is missing from the store');
    if (content.length !== expected.size || sha256(content) !== expected.sha256) throw storageCorrupt(name, version, `file "${filePath}"`, 'its content is not what was published');
    return content;
  }

  async hasFile(name: string, version: string, filePath: string): Promise<boolean> {
    const marker = await this.#marker(name, version);
    return marker !== undefined && Object.hasOwn(marker.files, filePath);
  }

  async putRecord(key: string, content: Buffer): Promise<void> {
    await this.#objects.put(this.#recordKey(key), content);
  }

  async createRecord(key: string, content: Buffer): Promise<boolean> {
    return this.#committer.createOnce(this.#recordKey(key), content, randomUUID());
  }

  async readRecord(key: string): Promise<Buffer | undefined> {
    return this.#objects.get(this.#recordKey(key));
  }

  async listRecords(folder: string, startAfter?: string, limit?: number): Promise<string[]> {
    const root = this.#recordKey('');
    const { objects } = await this.#objects.list(this.#recordKey(folder), undefined, startAfter === undefined ? undefined : this.#recordKey(startAfter), limit);
    return objects.map((object) => object.key.slice(root.length));
  }

  async deleteRecords(keys: readonly string[]): Promise<void> {
    await this.#objects.deleteQuietly(keys.map((key) => this.#recordKey(key)));
  }

  async writeVersion(name: string, version: string, files: ReadonlyMap<string, Buffer>): Promise<void> {
    const markerKey = this.#markerKey(name, version);
    if (await this.#objects.exists(markerKey)) throw alreadyExists(name, version);
    for (const filePath of files.keys()) {
      if (filePath.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) {
        throw new TesseraError('PACKAGE_NOT_VALID', `File "${filePath}" escapes the package.`);
      }
    }
    const upload = randomUUID();
    const marker: CommitMarker = { upload, files: {} };
    const written: string[] = [];
    try {
      const queue = [...files];
      const uploadNext = async (): Promise<void> => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const [filePath, content] = next;
          const key = this.#fileKey(name, version, upload, filePath);
          written.push(key);
          await this.#objects.put(key, content);
          marker.files[filePath] = { size: content.length, sha256: sha256(content) };
        }
      };
      await Promise.all(Array.from({ length: PARALLEL_UPLOADS }, uploadNext));
      await this.#committer.commit(name, version, markerKey, Buffer.from(JSON.stringify(marker)), upload);
    } catch (error) {
      await this.#objects.deleteQuietly(written);
      throw error;
    }
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }

  #marker(name: string, version: string): Promise<CommitMarker | undefined> {
    const id = `${name}@${version}`;
    let marker = this.#markers.get(id);
    if (!marker) {
      marker = this.#readMarker(name, version);
      this.#markers.set(id, marker);
      // Only a committed marker is kept: an absent one may be committed later, a failed read retried.
      marker.then((found) => found ?? this.#markers.delete(id), () => this.#markers.delete(id));
    }
    return marker;
  }

  async #readMarker(name: string, version: string): Promise<CommitMarker | undefined> {
    const raw = await this.#objects.get(this.#markerKey(name, version));
    if (!raw) return undefined;
    let marker: CommitMarker;
    try {
      marker = JSON.parse(raw.toString('utf8')) as CommitMarker;
    } catch {
      throw storageCorrupt(name, version, 'commit marker', 'it is not JSON');
    }
    if (typeof marker?.upload !== 'string' || typeof marker.files !== 'object' || marker.files === null) {
      throw storageCorrupt(name, version, 'commit marker', 'it lacks the upload or the file list');
    }
    return marker;
  }

  #markerKey(name: string, version: string): string {
    return `${this.#prefix}versions/${name}/${version}.json`;
  }

  #recordKey(key: string): string {
    return `${this.#prefix}catalog/${key}`;
  }

  #fileKey(name: string, version: string, upload: string, filePath: string): string {
    return `${this.#prefix}packages/${name}/${version}/${upload}/${filePath}`;
  }
}

/**
 * A client from the SDK's standard environment (`AWS_ENDPOINT_URL`, `AWS_REGION`,
 * `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, profiles…), with path-style addressing when an
 * endpoint is set (what self-hosted stores expect) and connection and request time limits.
 */
export function createS3Client(timeoutMs: number, env: NodeJS.ProcessEnv = process.env): S3Client {
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = env;
  return new S3Client({
    endpoint,
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    // Keys in `env` when there are; else the SDK's chain (profiles, container and instance roles).
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey, sessionToken } : undefined,
    forcePathStyle: Boolean(endpoint),
    maxAttempts: 2,
    // Self-hosted stores differ in the newer checksum headers; every file read is checked against its sha256 instead.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: Math.min(timeoutMs, 2000), requestTimeout: timeoutMs },
  });
}

const sha256 = (content: Buffer): string => createHash('sha256').update(content).digest('hex');
