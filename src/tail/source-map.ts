/**
 * A component's source map (`server.js.map` beside `server.js` in its package), read as data a
 * tenant wrote: bounded in size and nesting before it is parsed, its shape checked, its mappings
 * decoded once whole (a malformed one is refused, never half-used). Read here rather than with
 * Node's `SourceMap`, which keeps an object per mapping (a 5 MB map: 115 MB, 2.4 s to build): a
 * lookup walks the mappings again, keeping nothing but the positions asked for.
 */

/** The largest map read (also refused above this at publish): a real bundle's map without its sources' text is far smaller. */
export const MAX_SOURCE_MAP_BYTES = 5 * 1024 * 1024;
/** A source map nests two levels (`{"sources": [...]}`); anything much deeper is not one, and is refused before it is parsed. */
const MAX_NESTING = 4;
/** The longest source file name shown, its end kept (the file's own name). */
const MAX_SOURCE_CHARS = 200;
/** A VLQ value of more digits than this (30 bits) is past any position a bundle has. */
const MAX_VLQ_DIGITS = 6;

/** The parts of a map a lookup reads. */
export interface SourceMapData {
  /** Source file names as shown: cleaned (sourceName). */
  readonly sources: readonly string[];
  readonly mappings: string;
}

/** A position in the bundle or in a source, lines and columns from 1 (as in a stack frame). */
export interface Position {
  line: number;
  column: number;
}

export interface OriginalPosition extends Position {
  source: string;
}

/** Reads a map's bytes: its data, or why it cannot be used (a sentence). */
export function readSourceMap(bytes: Uint8Array): SourceMapData | { problem: string } {
  if (bytes.length > MAX_SOURCE_MAP_BYTES) return { problem: `is over ${MAX_SOURCE_MAP_BYTES} bytes` };
  if (nestingOver(bytes, MAX_NESTING)) return { problem: `nests deeper than ${MAX_NESTING} levels` };
  let json: { version?: unknown; sources?: unknown; mappings?: unknown; sections?: unknown };
  try {
    json = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8')) as typeof json;
  } catch {
    return { problem: 'is not JSON' };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return { problem: 'is not a JSON object' };
  if (json.version !== 3) return { problem: 'is not a version 3 source map' };
  if (json.sections !== undefined) return { problem: 'is an index map (sections): a plain map is read' };
  if (typeof json.mappings !== 'string') return { problem: 'has no mappings string' };
  if (!Array.isArray(json.sources) || !json.sources.every((source) => typeof source === 'string' || source === null)) return { problem: 'has no list of sources' };
  const sources = (json.sources as Array<string | null>).map((source) => sourceName(source ?? ''));
  const malformed = walkMappings(json.mappings, sources.length, Infinity, () => {});
  if (malformed !== undefined) return { problem: `has malformed mappings: ${malformed}` };
  return { sources, mappings: json.mappings };
}

/**
 * The source position of each bundle position, or undefined where the map has none. One walk of
 * the mappings for all of them: the mapping kept for a position is the last one of its line at or
 * before its column, as source map readers do.
 */
export function originalPositions(map: SourceMapData, positions: readonly Position[]): Array<OriginalPosition | undefined> {
  // Per position: the column of the mapping kept so far, and its source, line and column (numbers only while walking).
  const best = new Float64Array(positions.length).fill(-1);
  const original = new Float64Array(positions.length * 3).fill(-1);
  const lastLine = Math.max(...positions.map((position) => position.line - 1));
  walkMappings(map.mappings, map.sources.length, lastLine, (line, column, source, originalLine, originalColumn) => {
    for (let index = 0; index < positions.length; index++) {
      const wanted = positions[index]!;
      if (wanted.line - 1 !== line || column > wanted.column - 1 || column < best[index]!) continue;
      best[index] = column;
      original[index * 3] = source;
      original[index * 3 + 1] = originalLine;
      original[index * 3 + 2] = originalColumn;
    }
  });
  return positions.map((_, index) => {
    const source = original[index * 3]!;
    const name = source < 0 ? '' : map.sources[source]!;
    return name === '' ? undefined : { source: name, line: original[index * 3 + 1]! + 1, column: original[index * 3 + 2]! + 1 };
  });
}

/**
 * A source's name as a frame shows it: no scheme (`webpack://…/`), no `.`, `..` or empty segment
 * (`../../etc/passwd` reads `etc/passwd`), only printable characters that are no markup or quote,
 * at most MAX_SOURCE_CHARS (its end kept). The tenant's own name, never a file read.
 */
export function sourceName(raw: string): string {
  const path = raw
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')
    .split(/[/\\]+/)
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..')
    .join('/')
    .replace(/[^\p{L}\p{N}\p{M} ._\-+@~/[\]$#!,=&%]/gu, '_');
  return path.length > MAX_SOURCE_CHARS ? `…${path.slice(-MAX_SOURCE_CHARS)}` : path;
}

const BASE64 = new Int8Array(128).fill(-1);
for (const [index, char] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) BASE64[char.charCodeAt(0)] = index;
const COMMA = 44;
const SEMICOLON = 59;

/**
 * Decodes the mappings (base64 VLQ: a generated column, then optionally a source index, an original
 * line and column, a name index, each relative to the previous), calling `segment` with each
 * mapping's absolute values (lines and columns from 0; source -1 for a mapping with none), up to
 * the end of line `lastLine`. Answers what is malformed, or undefined.
 */
function walkMappings(
  mappings: string,
  sourceCount: number,
  lastLine: number,
  segment: (line: number, column: number, source: number, originalLine: number, originalColumn: number) => void,
): string | undefined {
  let line = 0;
  let column = 0;
  let source = 0;
  let originalLine = 0;
  let originalColumn = 0;
  const fields = [0, 0, 0, 0, 0];
  let position = 0;
  while (position < mappings.length) {
    const char = mappings.charCodeAt(position);
    if (char === SEMICOLON) {
      if (++line > lastLine) return undefined;
      column = 0;
      position++;
      continue;
    }
    if (char === COMMA) {
      position++;
      continue;
    }
    let count = 0;
    while (position < mappings.length) {
      const next = mappings.charCodeAt(position);
      if (next === COMMA || next === SEMICOLON) break;
      if (count === 5) return `a segment of more than five fields at character ${position}`;
      let value = 0;
      let shift = 0;
      let digits = 0;
      for (;;) {
        const digit = position < mappings.length ? (BASE64[mappings.charCodeAt(position)] ?? -1) : -1;
        if (digit < 0) return `a character that is not base64 VLQ at character ${position}`;
        if (++digits > MAX_VLQ_DIGITS) return `a value too large at character ${position}`;
        position++;
        value |= (digit & 31) << shift;
        shift += 5;
        if ((digit & 32) === 0) break;
      }
      fields[count++] = value & 1 ? -(value >>> 1) : value >>> 1;
    }
    if (count !== 1 && count !== 4 && count !== 5) return `a segment of ${count} fields on line ${line + 1}`;
    column += fields[0]!;
    if (column < 0) return `a negative column on line ${line + 1}`;
    if (count === 1) {
      segment(line, column, -1, 0, 0);
      continue;
    }
    source += fields[1]!;
    originalLine += fields[2]!;
    originalColumn += fields[3]!;
    if (source < 0 || source >= sourceCount) return `a source index out of the sources on line ${line + 1}`;
    if (originalLine < 0 || originalColumn < 0) return `a negative source position on line ${line + 1}`;
    segment(line, column, source, originalLine, originalColumn);
  }
  return undefined;
}

/** Whether JSON text nests deeper than `max` (a byte scan, strings skipped): JSON.parse of deep nesting is slow. */
function nestingOver(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index];
    if (inString) {
      if (byte === 0x5c) index++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > max) return true;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return false;
}
