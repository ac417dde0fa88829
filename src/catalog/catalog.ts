import semver from 'semver';
import { TesseraError } from '../errors/errors';
import type { StorageAdapter } from '../storage/storage-adapter';
import { ComponentVersion } from './component-version';
import { resolveVersion } from './resolve-version';

interface ComponentEntry {
  /** Ascending. */
  versions: string[];
  byVersion: Map<string, ComponentVersion>;
  /** Version expression → resolved version; semver parsing is too slow for every request. Cleared when a version is added. */
  resolved: Map<string, string | undefined>;
}

/** Distinct expressions remembered per component; past it the memo starts over (expressions come from requests). */
const MAX_REMEMBERED_EXPRESSIONS = 256;

/** Told when a stored version cannot be read (once per version until it reads again). */
export type UnreadableVersionListener = (id: string, reason: string) => void;

/**
 * The in-memory index of published components over the storage adapter. Loaded at start, updated
 * on publish, and refreshed by polling when several replicas share one storage. A version that
 * cannot be read is skipped (decisions §12): it never stops the others from loading.
 */
export class Catalog {
  readonly #storage: StorageAdapter;
  readonly #components = new Map<string, ComponentEntry>();
  /** `name@version` (or `name` when its versions cannot be listed) → why it was skipped; retried at each refresh. */
  readonly #unreadable = new Map<string, string>();
  readonly #onUnreadable: UnreadableVersionListener;

  constructor(storage: StorageAdapter, onUnreadable: UnreadableVersionListener = () => {}) {
    this.#storage = storage;
    this.#onUnreadable = onUnreadable;
  }

  /** Stored versions skipped because they cannot be read, at the last refresh. */
  get unreadableCount(): number {
    return this.#unreadable.size;
  }

  /** Reads every version not yet indexed; safe to call repeatedly. Only a storage that cannot be listed at all fails it. */
  async refresh(): Promise<void> {
    const stillUnreadable = new Set<string>();
    for (const name of await this.#storage.listComponents()) {
      let versions: string[];
      try {
        versions = await this.#storage.listVersions(name);
      } catch (error) {
        this.#skip(name, error, stillUnreadable);
        continue;
      }
      for (const version of versions) {
        if (this.#components.get(name)?.byVersion.has(version) || !semver.valid(version)) continue;
        try {
          await this.add(name, version);
        } catch (error) {
          this.#skip(`${name}@${version}`, error, stillUnreadable);
        }
      }
    }
    for (const id of this.#unreadable.keys()) if (!stillUnreadable.has(id)) this.#unreadable.delete(id);
  }

  #skip(id: string, error: unknown, stillUnreadable: Set<string>): void {
    stillUnreadable.add(id);
    const reason = error instanceof Error ? error.message : String(error);
    if (this.#unreadable.get(id) !== reason) this.#onUnreadable(id, reason);
    this.#unreadable.set(id, reason);
  }

  /** Indexes one version from storage (after a publish); rejects when its files cannot be read. */
  async add(name: string, version: string): Promise<ComponentVersion | undefined> {
    if (!semver.valid(version)) return undefined;
    const component = await ComponentVersion.read(this.#storage, name, version);
    let entry = this.#components.get(name);
    if (!entry) {
      entry = { versions: [], byVersion: new Map(), resolved: new Map() };
      this.#components.set(name, entry);
    }
    if (!entry.byVersion.has(version)) {
      entry.byVersion.set(version, component);
      entry.versions = semver.sort([...entry.versions, version]);
      entry.resolved.clear();
    }
    return entry.byVersion.get(version);
  }

  names(): string[] {
    return [...this.#components.keys()].sort();
  }

  /** Published versions of a component, ascending; empty when unknown. */
  versions(name: string): readonly string[] {
    return this.#components.get(name)?.versions ?? [];
  }

  latest(name: string): ComponentVersion | undefined {
    const entry = this.#components.get(name);
    const version = entry && resolvedVersion(entry, '');
    return version === undefined ? undefined : entry!.byVersion.get(version);
  }

  /** The version an expression names, or NOT_FOUND naming what is missing. */
  resolve(name: string, expression: string): ComponentVersion {
    const entry = this.#components.get(name);
    if (!entry) throw new TesseraError('NOT_FOUND', `Component "${name}" is not published on this registry.`);
    const version = resolvedVersion(entry, expression);
    if (version === undefined) {
      throw new TesseraError('NOT_FOUND', `Component "${name}" has no version matching "${expression}"; published versions: ${entry.versions.join(', ')}.`);
    }
    return entry.byVersion.get(version)!;
  }
}

/** The version `expression` resolves to among the entry's versions, remembered. */
function resolvedVersion(entry: ComponentEntry, expression: string): string | undefined {
  if (entry.resolved.has(expression)) return entry.resolved.get(expression);
  const version = resolveVersion(entry.versions, expression);
  if (entry.resolved.size >= MAX_REMEMBERED_EXPRESSIONS) entry.resolved.clear();
  entry.resolved.set(expression, version);
  return version;
}
