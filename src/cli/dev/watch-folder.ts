import { readdirSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** Folders whose changes never call for a rebuild: the packager's output, installed modules, git. */
const IGNORED = new Set(['_package', 'node_modules', '.git']);

/**
 * Calls `onChange` once a burst of changes under `dir` has settled (editors write a file in several
 * steps, often through a rename). Each folder is watched on its own: a recursive watch on Linux
 * loses a file once an editor has replaced it by renaming. Answers the function that stops watching.
 */
export function watchFolder(dir: string, onChange: () => void, settleMs = 80): () => void {
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;

  const changed = (file: string | null): void => {
    if (file !== null && IGNORED.has(file)) return;
    watchTree(dir); // a new subfolder gets its watcher
    clearTimeout(timer);
    timer = setTimeout(onChange, settleMs);
  };

  const watchTree = (folder: string): void => {
    if (!watchers.has(folder)) {
      try {
        const watcher = watch(folder, (_event, file) => changed(file));
        watcher.on('error', () => {
          watcher.close();
          watchers.delete(folder);
        });
        watchers.set(folder, watcher);
      } catch {
        return; // removed meanwhile
      }
    }
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && !IGNORED.has(entry.name)) watchTree(path.join(folder, entry.name));
    }
  };

  watchTree(dir);
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
}
