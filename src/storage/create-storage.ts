import path from 'node:path';
import { FileSystemStorage } from './fs-storage';
import { parseS3Location } from './s3-location';
import { S3Storage } from './s3-storage';
import type { StorageAdapter } from './storage-adapter';

/** The storage a `storage` setting names: `s3://bucket[/prefix]`, or else a folder. */
export function createStorage(setting: string, options: { timeoutMs: number }): StorageAdapter {
  const location = parseS3Location(setting);
  return location ? new S3Storage(location, { timeoutMs: options.timeoutMs }) : new FileSystemStorage(path.resolve(setting));
}
