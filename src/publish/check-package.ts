import type { DependencyPolicy } from '../config/config';
import { checkPackagedComponent } from '../dependency-policy/dependency-policy-check';
import type { PackagedDescriptor } from '../descriptor/descriptor-types';
import { verifyPackage } from './verify-package';

/**
 * Every check a package passes before it is stored: its files against its descriptor and the URL
 * it is published to (`verifyPackage`), then the dependency policy on its declared dependencies and
 * the modules `server.js` loads. A publish thread runs it on what was uploaded, and `tessera package`
 * on what it wrote, so that a package the packager accepts is one the registry accepts.
 * Answers the descriptor; throws PACKAGE_NOT_VALID or DEPENDENCY_NOT_ALLOWED.
 */
export function checkPackage(files: ReadonlyMap<string, Buffer>, name: string, version: string, policy: DependencyPolicy): PackagedDescriptor {
  const descriptor = verifyPackage(files, name, version);
  checkPackagedComponent(descriptor, files.get('server.js')?.toString('utf8'), policy);
  return descriptor;
}
