import { BUNDLE_FRAME, NEED_MAP, type MapFramesTask } from './map-frames-task';
import { originalPositions, readSourceMap, type Position, type SourceMapData } from './source-map';

// What the thread keeps: the maps of the versions that threw last, bounded in count and bytes, and
// each one's mapped frames (an exception thrown again maps without walking the mappings again).
const MAX_VERSIONS = 64;
const MAX_BYTES = 32 * 1024 * 1024;
const MAX_FRAMES_KEPT = 256;

interface Kept {
  /** None when the version has no usable map: its frames stay the bundle's. */
  readonly map: SourceMapData | undefined;
  readonly bytes: number;
  readonly frames: Map<string, string>;
}

const kept = new Map<string, Kept>();
let keptBytes = 0;

/** Runs in the source map thread (source-map-frames.ts): the stack with its bundle frames mapped where the map says. */
export function mapFramesTask(task: MapFramesTask): string[] | typeof NEED_MAP {
  let entry = kept.get(task.key);
  if (entry === undefined) {
    if (task.map === undefined) return NEED_MAP;
    entry = keep(task.key, task.map === 'none' ? undefined : readSourceMap(task.map));
  } else {
    // The most recently used last: the first is the next to go.
    kept.delete(task.key);
    kept.set(task.key, entry);
  }
  return entry.map === undefined ? [...task.stack] : mapped(entry, entry.map, task.stack);
}

function keep(key: string, read: ReturnType<typeof readSourceMap> | undefined): Kept {
  const map = read === undefined || 'problem' in read ? undefined : read;
  const bytes = map === undefined ? 0 : map.mappings.length + map.sources.reduce((sum, source) => sum + source.length * 2, 0) + MAX_FRAMES_KEPT * 1024;
  const entry: Kept = { map, bytes, frames: new Map() };
  kept.set(key, entry);
  keptBytes += bytes;
  for (const [oldest, old] of kept) {
    if (kept.size <= MAX_VERSIONS && keptBytes <= MAX_BYTES) break;
    if (oldest === key) continue;
    kept.delete(oldest);
    keptBytes -= old.bytes;
  }
  return entry;
}

function mapped(entry: Kept, map: SourceMapData, stack: readonly string[]): string[] {
  const wanted: Array<{ index: number; position: Position }> = [];
  const frames = stack.map((frame, index) => {
    const known = entry.frames.get(frame);
    if (known !== undefined) return known;
    const match = BUNDLE_FRAME.exec(frame);
    if (match) wanted.push({ index, position: { line: Number(match[1]), column: Number(match[2]) } });
    return frame;
  });
  if (wanted.length === 0) return frames;
  const found = originalPositions(map, wanted.map((frame) => frame.position));
  for (const [at, { index }] of wanted.entries()) {
    const original = found[at];
    const frame = stack[index]!;
    const shown = original === undefined ? frame : frame.replace(BUNDLE_FRAME, (_, _line, _column, paren: string) => `${original.source}:${original.line}:${original.column}${paren}`);
    if (entry.frames.size < MAX_FRAMES_KEPT) entry.frames.set(frame, shown);
    frames[index] = shown;
  }
  return frames;
}
