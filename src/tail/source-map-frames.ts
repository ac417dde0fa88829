import path from 'node:path';
import type { Piscina } from 'piscina';
import type { ComponentVersion } from '../catalog/component-version';
import { MAX_SOURCE_MAP_BYTES } from './source-map';
import { BUNDLE_FRAME, NEED_MAP, type MapFramesTask } from './map-frames-task';

const WORKER_FILE = path.join(__dirname, 'source-map-worker.js');
/** The thread ends after this long without an exception to map, and its maps with it. */
const IDLE_MS = 60_000;
/** Past this, an exception's frames stay the bundle's: reading its map (storage) and mapping them took too long. */
const WAIT_MS = 5_000;
/** A task of the thread past this ends it (another is started for the next): a map whose walk takes that long is not worth it. */
const TASK_MS = 5_000;
/** Stacks waiting for the thread past this are not mapped. */
const MAX_QUEUE = 32;
/** The thread's heap: its maps (at most 32 MB, source-map-worker.ts) and the parse of one map of at most 5 MB. */
const HEAP_MB = 96;

/**
 * Maps the frames of an uncaught exception's stack to the component's source files, where its
 * package has a source map (src/tail/source-map.ts): for a tail only, when a watched execution threw.
 * Reading, parsing and walking a map (a tenant's data, up to 5 MB) happen in a thread of their own,
 * made on the first such exception, never on a front's event loop: renders are never held up by
 * it, and its memory is bounded by the thread's heap. Whatever goes wrong (no map, a malformed one,
 * a thread too busy or ended), the frames stay those of the bundle.
 */
export class SourceMapFrames {
  #piscina: Piscina<MapFramesTask, string[] | typeof NEED_MAP> | undefined;
  #closed = false;

  /** The stack, its frames of the server bundle mapped where the version's map says; past WAIT_MS, the stack as it is (the records after it wait for it). */
  async mapped(version: ComponentVersion, stack: string[]): Promise<string[]> {
    if (this.#closed || !stack.some((frame) => BUNDLE_FRAME.test(frame))) return stack;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string[]>((resolve) => {
      timer = setTimeout(() => resolve(stack), WAIT_MS);
    });
    try {
      return await Promise.race([this.#map(version, stack), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #map(version: ComponentVersion, stack: string[]): Promise<string[]> {
    try {
      const key = version.sandboxKey;
      let answer = await this.#run({ key, stack });
      if (answer === NEED_MAP) {
        const bytes = await version.readServerMap();
        answer = await this.#run({ key, stack, map: bytes === undefined || bytes.length > MAX_SOURCE_MAP_BYTES ? 'none' : bytes });
      }
      return Array.isArray(answer) ? answer : stack;
    } catch {
      return stack;
    }
  }

  /** Ends the thread; frames asked for later stay the bundle's. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#piscina?.destroy();
  }

  #run(task: MapFramesTask): Promise<string[] | typeof NEED_MAP> {
    return this.#thread().run(task, { signal: AbortSignal.timeout(TASK_MS) });
  }

  /** The thread, made on the first stack to map: a registry whose watched executions never throw never loads piscina. */
  #thread(): Piscina<MapFramesTask, string[] | typeof NEED_MAP> {
    if (this.#piscina) return this.#piscina;
    const { Piscina } = require('piscina') as typeof import('piscina');
    this.#piscina = new Piscina({
      filename: WORKER_FILE,
      name: 'mapFramesTask',
      minThreads: 0,
      maxThreads: 1,
      maxQueue: MAX_QUEUE,
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 16 },
      recordTiming: false,
    });
    return this.#piscina;
  }
}
