import { createHash, randomUUID } from 'node:crypto';
import { link, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { INDEX_FORMAT, writeIndex } from '../src/catalog/catalog-index';
import { ChangeJournal } from '../src/catalog/change-journal';
import { summarize, type DescriptorSummary } from '../src/catalog/descriptor-summary';
import type { PackagedDescriptor } from '../src/descriptor/descriptor-types';
import type { StorageAdapter } from '../src/storage/storage-adapter';

/** One packaged component: its descriptor and files, copied under every generated name and version. */
export interface PackagedTemplate {
  descriptor: PackagedDescriptor;
  files: ReadonlyMap<string, Buffer>;
}

export interface GeneratedVersion {
  name: string;
  version: string;
}

/** `catalog-<n>` at 1.0.0 … 1.0.<versionsEach - 1>. */
export function versionsToGenerate(components: number, versionsEach: number): GeneratedVersion[] {
  return Array.from({ length: components * versionsEach }, (_, index) => ({ name: `catalog-${Math.floor(index / versionsEach)}`, version: `1.0.${index % versionsEach}` }));
}

/** The copy's descriptor: its name, version and a description of its own, as each publish would store it. */
function descriptorOf(template: PackagedTemplate, { name, version }: GeneratedVersion): PackagedDescriptor {
  return { ...template.descriptor, name, version, description: `Generated ${name}@${version}`, oc: { ...template.descriptor.oc, publisher: { tenant: 'bench', date: Date.now() } } };
}

async function atOnce<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await task(items[next++]!);
  }));
}

/**
 * Writes the versions into a file-system storage folder in the layout the registry writes
 * (`components/<name>/<version>/…`). Every file but `package.json` is a hard link to one copy in
 * `originals` (a folder on the same file system, outside the storage): the same bytes, written once.
 */
export async function fillFileSystem(root: string, originals: string, template: PackagedTemplate, versions: readonly GeneratedVersion[]): Promise<DescriptorSummary[]> {
  for (const [file, content] of template.files) {
    await mkdir(path.dirname(path.join(originals, file)), { recursive: true });
    await writeFile(path.join(originals, file), content);
  }
  const summaries: DescriptorSummary[] = [];
  await atOnce(versions, 16, async (generated) => {
    const folder = path.join(root, 'components', generated.name, generated.version);
    const descriptor = descriptorOf(template, generated);
    for (const file of template.files.keys()) {
      await mkdir(path.dirname(path.join(folder, file)), { recursive: true });
      if (file === 'package.json') await writeFile(path.join(folder, file), JSON.stringify(descriptor, null, 2));
      else await link(path.join(originals, file), path.join(folder, file));
    }
    summaries.push(summarize(descriptor));
  });
  return summaries;
}

/**
 * Writes the versions into an S3 bucket in the layout the S3 storage writes: each file under
 * `packages/<name>/<version>/<upload>/`, then the commit marker `versions/<name>/<version>.json`
 * naming the upload and each file's size and sha256.
 */
export async function fillS3(client: S3Client, bucket: string, prefix: string, template: PackagedTemplate, versions: readonly GeneratedVersion[]): Promise<DescriptorSummary[]> {
  const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');
  const shared = new Map([...template.files].filter(([file]) => file !== 'package.json').map(([file, content]) => [file, { content, size: content.length, sha256: sha256(content) }]));
  const put = (Key: string, Body: Buffer) => client.send(new PutObjectCommand({ Bucket: bucket, Key, Body }));
  const summaries: DescriptorSummary[] = [];
  await atOnce(versions, 32, async (generated) => {
    const descriptor = descriptorOf(template, generated);
    const packageJson = Buffer.from(JSON.stringify(descriptor, null, 2));
    const upload = randomUUID();
    const files: Record<string, { size: number; sha256: string }> = { 'package.json': { size: packageJson.length, sha256: sha256(packageJson) } };
    const base = `${prefix}packages/${generated.name}/${generated.version}/${upload}/`;
    await put(`${base}package.json`, packageJson);
    for (const [file, { content, size, sha256: hash }] of shared) {
      await put(`${base}${file}`, content);
      files[file] = { size, sha256: hash };
    }
    await put(`${prefix}versions/${generated.name}/${generated.version}.json`, Buffer.from(JSON.stringify({ upload, files })));
    summaries.push(summarize(descriptor));
  });
  return summaries;
}

/** Writes the catalog's index of the versions, as the first registry on the storage would (or, with `cursor`, one that read the journal up to it). */
export async function writeGeneratedIndex(storage: StorageAdapter, summaries: DescriptorSummary[], cursor = 0): Promise<void> {
  await writeIndex(storage, { format: INDEX_FORMAT, cursor, versions: summaries, unreadable: [] });
}

/**
 * Writes `count` lifecycle entries through the registry's own journal, evenly over `spanMs` up to
 * `end`, cycling over `versions`: what a tenant deprecating and undoing as fast as it could left
 * behind.
 */
export async function fillJournal(storage: StorageAdapter, versions: readonly GeneratedVersion[], count: number, spanMs: number, end: number): Promise<void> {
  const journal = new ChangeJournal(storage);
  const times = Array.from({ length: count }, (_, index) => Math.round(end - spanMs + (spanMs * (index + 1)) / count));
  await atOnce(times.map((time, index) => ({ time, version: versions[index % versions.length]! })), 32, async ({ time, version }) => {
    await journal.announce(version.name, version.version, time, 'lifecycle');
  });
}
