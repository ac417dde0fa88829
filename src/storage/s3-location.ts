/** Where an S3 storage lives: a bucket and a key prefix inside it ('' or ending with `/`). */
export interface S3Location {
  bucket: string;
  prefix: string;
}

/** `s3://bucket` or `s3://bucket/some/prefix`: the storage setting when it names a bucket instead of a folder. */
export function parseS3Location(setting: string): S3Location | undefined {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(setting);
  if (!match) return undefined;
  const prefix = match[2]!.replace(/^\/+|\/+$/g, '');
  return { bucket: match[1]!, prefix: prefix === '' ? '' : `${prefix}/` };
}
