import semver from 'semver';
import type { Catalog } from '../catalog/catalog';
import { isComponentName } from '../descriptor/descriptor-schema';
import { TesseraError } from '../errors/errors';
import type { StorageAdapter } from '../storage/storage-adapter';

/**
 * ALREADY_EXISTS when this replica, or storage shared with others, has the version: asked by the
 * front before it reads an upload. A version stored meanwhile is refused by storage itself.
 */
export async function assertNotPublished(where: { catalog: Catalog; storage: StorageAdapter }, name: string, version: string): Promise<void> {
  // A name or version that could not be stored is left to the package checks; storage never sees it.
  if (!isComponentName(name) || semver.valid(version) !== version) return;
  // An unpublished version's number stays taken (its tombstone), even if its files were removed by hand.
  const known = where.catalog.versions(name).includes(version) || where.catalog.isUnpublished(name, version) || (await where.storage.listVersions(name)).includes(version);
  if (known) throw new TesseraError('ALREADY_EXISTS', `${name}@${version} is already published; versions are immutable.`);
}
