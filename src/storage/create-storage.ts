import path from 'node:path';
import { FileSystemStorage } from './fs-storage';
import { parseS3Location } from './s3-location';
import type { StorageAdapter } from './storage-adapter';

/** The storage a `storage` setting names: `s3://bucket[/prefix]`, or else a folder. */
export function createStorage(setting: string, options: { timeoutMs: number }): StorageAdapter {
  const location = parseS3Location(setting);
  if (!location) return new FileSystemStorage(path.resolve(setting));
  // Loaded only when named: the AWS SDK adds about 25 MB to a registry on the file system, and time to its start.
  const { S3Storage } = require('./s3-storage') as typeof import('./s3-storage');
  return new S3Storage(location, { timeoutMs: options.timeoutMs });
}
