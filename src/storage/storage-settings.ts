/**
 * What a storage adapter is built from, as plain data. A publish thread cannot be handed the
 * registry's adapter (an object holding connections), so it builds its own from these: the same
 * folder or bucket, the same deadlines, the same credentials.
 */
export interface StorageSettings {
  /** A folder of the file-system storage, or `s3://bucket[/prefix]`. */
  location: string;
  /** S3: deadline of one storage call (`limits.storageTimeoutMs`); the file system has none. */
  timeoutMs?: number;
  /** S3: the AWS SDK's environment (endpoint, region, keys); this process's own when absent. */
  env?: Record<string, string>;
  /** S3: files from this size up go as multipart uploads, in parts of this size. */
  multipartBytes?: number;
  /** S3: claim protocol timings, for stores that ignore conditional writes (see VersionCommitter). */
  settleMs?: number;
  leaseMs?: number;
}
