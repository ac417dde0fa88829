import path from 'node:path';
import { FileSystemStorage } from './fs-storage';
import { parseS3Location } from './s3-location';
import type { StorageAdapter } from './storage-adapter';
import type { StorageSettings } from './storage-settings';

/** `limits.storageTimeoutMs`'s default, for settings that name no deadline. */
const DEFAULT_TIMEOUT_MS = 5000;

/** The storage its settings name: `s3://bucket[/prefix]`, or else a folder. */
export function createStorage(settings: StorageSettings): StorageAdapter {
  const location = parseS3Location(settings.location);
  if (!location) return new FileSystemStorage(path.resolve(settings.location));
  // Loaded only when named: the AWS SDK adds about 25 MB to a registry on the file system, and time to its start.
  const { S3Storage } = require('./s3-storage') as typeof import('./s3-storage');
  const { timeoutMs = DEFAULT_TIMEOUT_MS, env, multipartBytes, settleMs, leaseMs } = settings;
  return new S3Storage(location, { timeoutMs, env, multipartBytes, settleMs, leaseMs });
}
