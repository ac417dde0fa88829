import semver from 'semver';
import type { Catalog } from '../catalog/catalog';
import type { RegistryConfig } from '../config/config';
import { isComponentName } from '../descriptor/descriptor-schema';
import { TesseraError } from '../errors/errors';
import type { StorageAdapter } from '../storage/storage-adapter';
import { unpackPackage } from './unpack-package';
import { verifyPackage } from './verify-package';

export interface PublishServices {
  config: RegistryConfig;
  catalog: Catalog;
  storage: StorageAdapter;
  /** Tells the registry's other front threads, which index the version before the publish is answered. */
  published(name: string, version: string): Promise<void>;
}

export interface PublishRequest {
  name: string;
  version: string;
  /** The packed component: a gzip tarball of the `_package` folder (or of its content). */
  tarball: Buffer;
  /** The tenant whose token authorized the publish. */
  tenant: string;
  /** Validate only; store nothing. */
  dryRun: boolean;
}

/**
 * Unpacks, verifies and stores one component version, then indexes it so every front thread of
 * this replica serves it at once. Every check runs before anything is written, and storage writes a version whole, so a
 * refused or interrupted publish leaves nothing behind. The caller has checked `assertNotPublished`
 * before reading the upload; a version stored meanwhile is refused by storage itself.
 */
export async function publishPackage(services: PublishServices, request: PublishRequest): Promise<void> {
  const { name, version } = request;
  const files = await unpackPackage(request.tarball, services.config.limits.publishBytes);
  const descriptor = verifyPackage(files, name, version);
  // The JavaScript parser behind the policy check is loaded on the first publish, not by a registry that only serves.
  const { checkPackagedComponent } = await import('../dependency-policy/dependency-policy-check');
  checkPackagedComponent(descriptor, files.get('server.js')?.toString('utf8'), services.config.dependencyPolicy);
  if (request.dryRun) return;

  descriptor.oc.publisher = { tenant: request.tenant, date: Date.now() };
  files.set('package.json', Buffer.from(JSON.stringify(descriptor, null, 2)));
  await services.catalog.publish(name, version, files);
  await services.published(name, version);
}

/** ALREADY_EXISTS when this replica, or storage shared with others, has the version. */
export async function assertNotPublished(services: PublishServices, name: string, version: string): Promise<void> {
  // A name or version that could not be stored is left to verifyPackage; storage never sees it.
  if (!isComponentName(name) || semver.valid(version) !== version) return;
  const known = services.catalog.versions(name).includes(version) || (await services.storage.listVersions(name)).includes(version);
  if (known) throw new TesseraError('ALREADY_EXISTS', `${name}@${version} is already published; versions are immutable.`);
}
