import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { ReadEntry } from 'tar';
import { TesseraError } from '../errors/errors';

const gunzipAsync = promisify(gunzip);

/** Entry types that are plain file content; directories are accepted and ignored. */
const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
const LINK_TYPES = new Set(['SymbolicLink', 'Link']);

/** The folder `tessera publish` (and OC's CLI) wraps the package in; a tarball of the bare content works too. */
const PACKAGE_PREFIX = '_package/';

/**
 * Reads a packed component (gzip tarball) in memory into its files, by path inside the package.
 * Nothing touches the disk here, and any entry that could escape the package (`..`, absolute
 * paths, symbolic or hard links, devices) refuses the whole tarball, each such entry listed.
 * The unpacked content is held to `maxBytes` as well, so a small tarball cannot inflate past it.
 */
export async function unpackPackage(tarball: Buffer, maxBytes: number): Promise<Map<string, Buffer>> {
  if (tarball.length === 0) throw noPackageError();
  let tar: Buffer;
  try {
    tar = await gunzipAsync(tarball, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new TesseraError('PAYLOAD_TOO_LARGE', `The unpacked package is over the publish limit of ${maxBytes} bytes.`);
    }
    // Gzip's magic bytes tell a body that is not gzip from one cut short or damaged on the way.
    const gzip = tarball[0] === 0x1f && tarball[1] === 0x8b;
    throw notValid(
      'The package is not a gzip tarball.',
      [gzip ? 'the gzip body is truncated or damaged: send the whole gzip tarball of the _package folder again' : 'the body is not gzip-compressed: send the gzip tarball of the _package folder'],
    );
  }
  const { files, problems, readable } = await readEntries(tar);
  if (!readable) throw notValid('The package is not a tarball.', ['the gzip content is not a readable tar archive']);
  if (problems.length > 0) throw notValid('The package has entries that escape it or are not regular files; nothing was stored.', problems);
  return stripPackageFolder(files);
}

async function readEntries(tar: Buffer): Promise<{ files: Map<string, Buffer>; problems: string[]; readable: boolean }> {
  const files = new Map<string, Buffer>();
  const problems: string[] = [];
  const onEntry = (entry: ReadEntry) => {
    const problem = entryProblem(entry);
    if (problem) problems.push(problem);
    if (problem || !FILE_TYPES.has(entry.type)) {
      entry.resume();
      return;
    }
    const path = entry.path.replace(/^(\.\/)+/, '');
    if (files.has(path)) problems.push(`"${entry.path}" appears twice in the tarball`);
    const chunks: Buffer[] = [];
    entry.on('data', (chunk: Buffer) => chunks.push(chunk));
    entry.on('end', () => files.set(path, Buffer.concat(chunks)));
  };
  // Loaded on the first publish: a registry that only serves never holds the tar library.
  const { Parser } = await import('tar');
  const readable = await new Promise<boolean>((resolve) => {
    const parser = new Parser({ strict: true, onReadEntry: onEntry });
    parser.on('error', () => resolve(false));
    parser.on('end', () => resolve(true));
    parser.end(tar);
  });
  return { files, problems, readable };
}

/** Why an entry is refused, or undefined when it stays inside the package. */
function entryProblem(entry: ReadEntry): string | undefined {
  const name = JSON.stringify(entry.path);
  if (LINK_TYPES.has(entry.type)) return `${name} is a link; a package holds regular files only`;
  if (!FILE_TYPES.has(entry.type) && entry.type !== 'Directory') return `${name} is a ${entry.type}; a package holds regular files only`;
  if (/^[/\\]/.test(entry.path) || /^[A-Za-z]:/.test(entry.path)) return `${name} is an absolute path; paths must stay inside the package`;
  if (/[\\\0]/.test(entry.path)) return `${name} contains a backslash or NUL; paths must be plain relative paths`;
  if (entry.path.split('/').includes('..')) return `${name} climbs out with ".."; paths must stay inside the package`;
  return undefined;
}

/** `_package/x` → `x` when every file sits in the `_package` folder. */
function stripPackageFolder(files: Map<string, Buffer>): Map<string, Buffer> {
  const paths = [...files.keys()];
  if (paths.length === 0 || !paths.every((p) => p.startsWith(PACKAGE_PREFIX))) return files;
  return new Map([...files].map(([p, content]) => [p.slice(PACKAGE_PREFIX.length), content]));
}

/** A multipart upload its parser could not read (cut short, no boundary). */
export function malformedUploadError(reason: string): TesseraError {
  return notValid('The multipart upload is malformed.', [
    `${reason}: send the gzip tarball of the _package folder as the one file of a well-formed multipart/form-data upload, or as the body (Content-Type: application/gzip)`,
  ]);
}

/** A request without a packed component in a form this route reads. */
export function noPackageError(): TesseraError {
  return notValid('The request does not carry a package.', [
    'send the gzip tarball of the _package folder as the body (Content-Type: application/gzip), or as the one file of a multipart/form-data upload',
  ]);
}

const notValid = (message: string, problems: string[]) => new TesseraError('PACKAGE_NOT_VALID', message, { details: { problems } });
