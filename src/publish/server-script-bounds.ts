import type { RegistryConfig } from '../config/config';
import { TesseraError } from '../errors/errors';
import { scriptShape } from './script-shape';

/** What a publish parses of a package's `server.js` at most (the `limits.serverScript*` settings). */
export interface ServerScriptBounds {
  bytes: number;
  lines: number;
  nesting: number;
}

export const serverScriptBounds = (limits: RegistryConfig['limits']): ServerScriptBounds => ({
  bytes: limits.serverScriptBytes,
  lines: limits.serverScriptLines,
  nesting: limits.serverScriptNesting,
});

/**
 * Refuses a server script past its bounds before anything parses it: the parser's time and memory
 * grow with the script's size and statements (a 19 MB file of `0;` lines held a publish thread for
 * 26 s and took 1.9 GB), and its recursion with nesting. Size is read off the buffer, lines and
 * nesting in one pass over its bytes (script-shape.ts), each far cheaper than a parse.
 */
export function assertServerScriptWithinBounds(script: Buffer, bounds: ServerScriptBounds): void {
  if (script.length > bounds.bytes) throw serverScriptTooLarge(script.length, bounds.bytes);
  const shape = scriptShape(script, bounds.lines, bounds.nesting);
  if (shape.lines > bounds.lines) {
    throw tooComplex(`server.js has more than ${bounds.lines} lines (limits.serverScriptLines); bundle it minified, or split what it holds.`, 'serverScriptLines', bounds.lines);
  }
  if (shape.depth > bounds.nesting) {
    throw tooComplex(`server.js nests brackets more than ${bounds.nesting} deep (limits.serverScriptNesting).`, 'serverScriptNesting', bounds.nesting);
  }
}

/** Also answered while unpacking, as soon as the tarball's entry header gives the script's size (unpack-package.ts). */
export const serverScriptTooLarge = (size: number, limit: number): TesseraError =>
  new TesseraError('SERVER_SCRIPT_TOO_LARGE', `server.js is ${size} bytes; this registry checks server scripts of at most ${limit} bytes (limits.serverScriptBytes).`, {
    details: { bound: 'serverScriptBytes', limit },
  });

const tooComplex = (message: string, bound: string, limit: number): TesseraError => new TesseraError('PACKAGE_TOO_COMPLEX', message, { details: { bound, limit } });
