import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Header } from 'tar';
import type { RegistryConfig } from '../../src/config/config';
import { packTarball } from '../../src/packager/pack-tarball';
import { packagedFixture } from '../helpers/packaged-fixture';
import { hashToken } from '../../src/publish/tenant-tokens';
import { fixture, request, startRegistry, type StartedRegistry } from '../helpers/start-registry';

export const GREETING = fixture('publish-greeting');
/** The greeters' token may publish `publish-greet*`; the shop's may publish `shop-*`. */
export const GREETERS_TOKEN = 'greeters-secret-token';
export const SHOP_TOKEN = 'shop-secret-token';

export function publishTokens(): RegistryConfig['publishTokens'] {
  return [
    { tenant: 'greeters', sha256: hashToken(GREETERS_TOKEN), components: ['publish-greet*'] },
    { tenant: 'shop', sha256: hashToken(SHOP_TOKEN), components: ['shop-*'] },
  ];
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** A registry with no components and the two tenants' tokens. */
export function startPublishRegistry(t: Teardown, configure: (config: RegistryConfig) => void = () => {}): Promise<StartedRegistry> {
  return startRegistry(t, [], (config) => {
    config.limits.sandboxHosts = 1;
    config.publishTokens = publishTokens();
    configure(config);
  });
}

/** The packaged fixture's files, optionally as another version, for tests to alter before packing. */
export async function packagedFiles(dir: string, version?: string): Promise<Map<string, Buffer>> {
  const { descriptor, files } = await packagedFixture(dir);
  if (version !== undefined) files.set('package.json', Buffer.from(JSON.stringify({ ...descriptor, version }, null, 2)));
  return files;
}

/** The greeting fixture's files, or `files`, with the descriptor changed by `edit`. */
export async function withDescriptor(edit: (descriptor: any) => void, files?: Map<string, Buffer>): Promise<Map<string, Buffer>> {
  const edited = files ?? (await packagedFiles(GREETING));
  const descriptor = JSON.parse(edited.get('package.json')!.toString());
  edit(descriptor);
  edited.set('package.json', Buffer.from(JSON.stringify(descriptor)));
  return edited;
}

export async function packed(dir: string, version?: string): Promise<Buffer> {
  return packTarball(await packagedFiles(dir, version));
}

/** The greeting fixture packed under another name (another component of the same code). */
export async function packedAs(name: string, version = '1.0.0'): Promise<Buffer> {
  return packTarball(await withDescriptor((descriptor) => Object.assign(descriptor, { name, version }), await packagedFiles(GREETING)));
}

export interface PutOptions {
  token?: string;
  contentType?: string;
  query?: string;
  /** How long the answer may take, in ms, where the request's default (60 s) is too short. */
  limitMs?: number;
}

/** `PUT <url><name>/<version>` with the greeters' token unless told otherwise. */
export function put(url: string, id: string, body: Buffer | FormData | string, options: PutOptions = {}) {
  const headers: Record<string, string> = {};
  const token = options.token ?? GREETERS_TOKEN;
  if (token !== '') headers.authorization = `Bearer ${token}`;
  if (!(body instanceof FormData)) headers['content-type'] = options.contentType ?? 'application/gzip';
  const limit = options.limitMs === undefined ? {} : { signal: AbortSignal.timeout(options.limitMs) };
  return request(`${url}${id}${options.query ?? ''}`, { method: 'PUT', headers, body, ...limit });
}

export interface CraftedEntry {
  path: string;
  type?: 'File' | 'SymbolicLink' | 'Link' | 'Directory';
  content?: string;
  linkpath?: string;
}

/** A gzip tarball written entry by entry, for archives no packer would produce. */
export async function craftTarball(entries: CraftedEntry[]): Promise<Buffer> {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const content = Buffer.from(entry.content ?? '');
    const header = new Header({ path: entry.path, type: entry.type ?? 'File', size: content.length, mode: 0o644, mtime: new Date(0), linkpath: entry.linkpath });
    header.encode();
    blocks.push(header.block!, content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return promisify(gzip)(Buffer.concat(blocks));
}

