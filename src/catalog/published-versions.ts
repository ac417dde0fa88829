import semver from 'semver';
import { TesseraError } from '../errors/errors';
import type { ComponentVersion } from './component-version';
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

/** The published versions in memory, by component, and the resolution of version expressions over them. */
export class PublishedVersions {
  readonly #components = new Map<string, ComponentEntry>();
  #names: string[] | undefined;
  #size = 0;

  /** Versions held. */
  get size(): number {
    return this.#size;
  }

  has(name: string, version: string): boolean {
    return this.#components.get(name)?.byVersion.has(version) ?? false;
  }

  get(name: string, version: string): ComponentVersion | undefined {
    return this.#components.get(name)?.byVersion.get(version);
  }

  /** Adds versions (one, or a whole index at once: each component's versions are sorted once); a version held already is kept. */
  add(components: Iterable<ComponentVersion>): void {
    const touched = new Set<ComponentEntry>();
    for (const component of components) {
      let entry = this.#components.get(component.name);
      if (!entry) {
        entry = { versions: [], byVersion: new Map(), resolved: new Map() };
        this.#components.set(component.name, entry);
        this.#names = undefined;
      }
      if (entry.byVersion.has(component.version)) continue;
      entry.byVersion.set(component.version, component);
      entry.versions.push(component.version);
      touched.add(entry);
      this.#size += 1;
    }
    for (const entry of touched) {
      entry.versions = semver.sort(entry.versions);
      entry.resolved.clear();
    }
  }

  /** Takes a version out (unpublished): expressions resolve to the others from then on. */
  remove(name: string, version: string): void {
    const entry = this.#components.get(name);
    if (!entry?.byVersion.delete(version)) return;
    entry.versions = entry.versions.filter((held) => held !== version);
    entry.resolved.clear();
    this.#size -= 1;
    if (entry.versions.length === 0) {
      this.#components.delete(name);
      this.#names = undefined;
    }
  }

  /** Every version held, component by component. */
  *all(): IterableIterator<ComponentVersion> {
    for (const entry of this.#components.values()) yield* entry.byVersion.values();
  }

  /** Component names, sorted (kept until a component is added: the list is asked for far more often than it changes). */
  names(): readonly string[] {
    this.#names ??= [...this.#components.keys()].sort();
    return this.#names;
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
