import type { StorageAdapter } from '../storage/storage-adapter';
import type { ChangeJournal } from './change-journal';

/**
 * Stores a version whole with its entry in the change journal, so that every replica's next poll
 * finds it: the entry first (a reader never misses a stored version), withdrawn when the write
 * fails, confirmed after (see change-journal.ts). Both the catalog (demo components, dev builds) and
 * a publish thread store versions this way.
 */
export async function writeJournaled(
  storage: StorageAdapter,
  journal: ChangeJournal,
  name: string,
  version: string,
  files: ReadonlyMap<string, Buffer>,
  onNotice: (message: string) => void,
): Promise<void> {
  const entry = await journal.announce(name, version);
  try {
    await storage.writeVersion(name, version, files);
  } catch (error) {
    await journal.withdraw(entry);
    throw error;
  }
  try {
    await journal.confirm(entry);
  } catch (error) {
    // The version is stored and its entry written; only a reader that moved past a slow commit could miss it.
    onNotice(`the journal entry of ${name}@${version} could not be confirmed: ${(error as Error).message}`);
  }
}
