import type { StorageAdapter } from '../storage/storage-adapter';
import { listUnpublished, readDeprecations, readLifecycle, type Deprecation } from './lifecycle-records';

/**
 * What the catalog knows of its versions' lifecycles (lifecycle-records.ts), in memory: which
 * versions were unpublished, and the deprecated ones' messages. Read whole at the catalog's load;
 * then one version at a time, when the journal says it changed.
 */
export class VersionLifecycles {
  readonly #storage: StorageAdapter;
  readonly #unpublished = new Set<string>();
  readonly #deprecations = new Map<string, Deprecation>();

  constructor(storage: StorageAdapter) {
    this.#storage = storage;
  }

  // Asked at every render: with none recorded (the usual case) no key is built.
  isUnpublished(name: string, version: string): boolean {
    return this.#unpublished.size > 0 && this.#unpublished.has(`${name}@${version}`);
  }

  deprecationOf(name: string, version: string): Deprecation | undefined {
    return this.#deprecations.size === 0 ? undefined : this.#deprecations.get(`${name}@${version}`);
  }

  /** Reads every lifecycle record; answers the unpublished versions (`name@version`). */
  async loadAll(): Promise<string[]> {
    const [unpublished, deprecations] = await Promise.all([listUnpublished(this.#storage), readDeprecations(this.#storage)]);
    for (const id of unpublished) this.#unpublished.add(id);
    this.#deprecations.clear();
    for (const [id, deprecation] of deprecations) this.#deprecations.set(id, deprecation);
    return unpublished;
  }

  /** Reads one version's records again; answers whether it is unpublished. */
  async reload(name: string, version: string): Promise<boolean> {
    const id = `${name}@${version}`;
    const { unpublished, deprecation } = await readLifecycle(this.#storage, id);
    if (unpublished) this.#unpublished.add(id);
    if (deprecation) this.#deprecations.set(id, deprecation);
    else this.#deprecations.delete(id);
    return unpublished;
  }
}
