import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Header, Pax } from 'tar';

const gzipAsync = promisify(gzip);
const BLOCK = 512;

/** The end of a tar archive: two empty blocks. */
export const TAR_END = Buffer.alloc(BLOCK * 2);

/**
 * Packs a package's files into the gzip tarball that `PUT /:name/:version` accepts: every file under
 * `_package/`, as OC's CLI lays it out, regular files only, in a stable order and with a fixed
 * date so that the same package always packs to the same bytes.
 */
export async function packTarball(files: ReadonlyMap<string, Buffer>): Promise<Buffer> {
  return gzipAsync(Buffer.concat([tarEntries(files), TAR_END]));
}

/** The tar entries of `files` (headers and contents, sorted by path), without the archive's end. */
export function tarEntries(files: ReadonlyMap<string, Buffer>): Buffer {
  const blocks: Buffer[] = [];
  for (const [filePath, content] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const data = { path: `_package/${filePath}`, type: 'File' as const, size: content.length, mode: 0o644, mtime: new Date(0), uid: 0, gid: 0 };
    const header = new Header(data);
    // encode() answers true when the path does not fit the ustar fields; a pax record carries it.
    if (header.encode()) blocks.push(new Pax(data).encode());
    blocks.push(header.block!, content, Buffer.alloc((BLOCK - (content.length % BLOCK)) % BLOCK));
  }
  return Buffer.concat(blocks);
}
