/** A stack to map in the source map thread (source-map-worker.ts): its version (its sandbox key), and the version's map when the thread asked for it. */
export interface MapFramesTask {
  key: string;
  stack: readonly string[];
  /** The map's bytes; `none` for a version with none, or one over the bound (not sent). */
  map?: Uint8Array | 'none';
}

/** What the thread answers when it holds nothing of the version: the task again, with its map. */
export const NEED_MAP = 'need-map';

/** A frame of the server bundle, as the isolate keeps it (workers/prelude/tail-capture.ts): `at f (server.js:1:2045)`, `at server.js:1:2045`. */
export const BUNDLE_FRAME = /(?<=\(|^at )server\.js:(\d+):(\d+)(\)?)$/;
