import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { TesseraError } from '../errors/errors';
import { serverScriptTooLarge } from './server-script-bounds';
import { noPackageError, notValid, unpackedTooLarge } from './upload-errors';

/** Entry types that are plain file content; directories are accepted and ignored. */
const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
const LINK_TYPES = new Set(['SymbolicLink', 'Link']);

/** The folder `tessera publish` (and OC's CLI) wraps the package in; a tarball of the bare content works too. */
const PACKAGE_PREFIX = '_package/';
/** Where a tarball holds the server script: at its root, or in its `_package` folder. */
const SERVER_SCRIPT_PATHS = new Set(['server.js', `${PACKAGE_PREFIX}server.js`]);

/**
 * Reads a packed component (gzip tarball) into its files, by path inside the package, as its bytes
 * arrive: each chunk is inflated and parsed at once, so the packed body is never held whole.
 * Nothing touches the disk here, and any entry that could escape the package (`..`, absolute
 * paths, symbolic or hard links, devices) refuses the whole tarball, each such entry listed.
 * The unpacked content is held to `maxBytes`, so a small tarball cannot inflate past it, and a
 * server script to `maxServerScriptBytes`, refused by its entry's header before its content is
 * inflated (a 20 KB upload holding 19 MB of `0;` lines costs that header, not 19 MB of work).
 */
export async function unpackPackage(packed: AsyncIterable<Buffer>, maxBytes: number, maxServerScriptBytes: number): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const problems: string[] = [];
  let refusal: TesseraError | undefined;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry) => {
      if (SERVER_SCRIPT_PATHS.has(plainPath(entry)) && entry.size > maxServerScriptBytes) {
        refusal ??= serverScriptTooLarge(entry.size, maxServerScriptBytes);
        entry.resume();
      } else {
        readEntry(entry, files, problems);
      }
    },
  });
  const parsed = new Promise<boolean>((resolve) => {
    parser.on('error', () => resolve(false));
    parser.on('end', () => resolve(true));
  });
  let head = Buffer.alloc(0);
  let inflated = 0;
  try {
    await pipeline(
      packed,
      async function* firstBytes(source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          if (head.length < 2) head = Buffer.concat([head, chunk.subarray(0, 2)]);
          yield chunk;
        }
      },
      createGunzip(),
      async (tar: AsyncIterable<Buffer>) => {
        for await (const chunk of tar) {
          inflated += chunk.length;
          if (inflated > maxBytes) throw unpackedTooLarge(maxBytes);
          parser.write(chunk);
          // Stops the reading, inflating and parsing here: nothing more of the upload is read.
          if (refusal) throw refusal;
        }
        parser.end();
      },
    );
  } catch (error) {
    // Coded already: too large, or the upload stopped on its way here.
    if (error instanceof TesseraError) throw error;
    if (head.length === 0) throw noPackageError();
    // Gzip's magic bytes tell a body that is not gzip from one cut short or damaged on the way.
    const gzip = head[0] === 0x1f && head[1] === 0x8b;
    throw notValid('The package is not a gzip tarball.', [
      gzip ? 'the gzip body is truncated or damaged: send the whole gzip tarball of the _package folder again' : 'the body is not gzip-compressed: send the gzip tarball of the _package folder',
    ]);
  }
  if (!(await parsed)) throw notValid('The package is not a tarball.', ['the gzip content is not a readable tar archive']);
  if (problems.length === 0) problems.push(...clashProblems(files));
  if (problems.length > 0) throw notValid('The package has entries that escape it, are not regular files or cannot be stored; nothing was stored.', problems);
  return stripPackageFolder(files);
}

/** Keeps a regular file's content under its path, or notes why the entry is refused. */
function readEntry(entry: ReadEntry, files: Map<string, Buffer>, problems: string[]): void {
  const problem = entryProblem(entry);
  if (problem) problems.push(problem);
  if (problem || !FILE_TYPES.has(entry.type)) {
    entry.resume();
    return;
  }
  const path = plainPath(entry);
  const pathProblem = plainPathProblem(path, JSON.stringify(entry.path));
  if (pathProblem) {
    problems.push(pathProblem);
    entry.resume();
    return;
  }
  if (files.has(path)) problems.push(`"${entry.path}" appears twice in the tarball`);
  const chunks: Buffer[] = [];
  entry.on('data', (chunk: Buffer) => chunks.push(chunk));
  entry.on('end', () => files.set(path, Buffer.concat(chunks)));
}

/** An entry's path inside the package: `./x` is `x`. */
const plainPath = (entry: ReadEntry): string => entry.path.replace(/^(\.\/)+/, '');

/** The longest name of one file or folder most file systems hold, in bytes. */
const MAX_NAME_BYTES = 255;
/** The deepest a file may sit in the package. */
const MAX_DEPTH = 32;

/**
 * Why a file's path is no plain path a storage can hold, or undefined. One name is one file: `a/./b`
 * or `a//b` would be the file `a/b` once written, past the checks that read the first of them.
 */
function plainPathProblem(path: string, name: string): string | undefined {
  const segments = path.split('/');
  if (segments.some((segment) => segment === '' || segment === '.')) return `${name} has an empty or "." folder; paths must be plain relative paths`;
  if (segments.length > MAX_DEPTH) return `${name} is ${segments.length - 1} folders deep; a file may sit at most ${MAX_DEPTH - 1} folders deep`;
  if (segments.some((segment) => Buffer.byteLength(segment) > MAX_NAME_BYTES)) return `${name} has a name over ${MAX_NAME_BYTES} bytes`;
  return undefined;
}

/** Files whose path is also a folder of another file's: no storage holds both. */
function clashProblems(files: ReadonlyMap<string, Buffer>): string[] {
  const problems: string[] = [];
  for (const path of files.keys()) {
    for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
      const folder = path.slice(0, at);
      if (files.has(folder)) problems.push(`"${folder}" is both a file and the folder of "${path}"`);
    }
  }
  return problems;
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
