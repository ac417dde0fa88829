import type { DependencyPolicy } from '../config/config';
import { checkPackagedComponent } from '../dependency-policy/dependency-policy-check';
import type { PackagedDescriptor } from '../descriptor/descriptor-types';
import { assertServerScriptWithinBounds, type ServerScriptBounds } from './server-script-bounds';
import { verifyPackage } from './verify-package';

/** What a package is checked against: the registry's configuration, or the packager's defaults. */
export interface PackageRules {
  dependencyPolicy: DependencyPolicy;
  serverScript: ServerScriptBounds;
}

/**
 * Every check a package passes before it is stored: `server.js` within the bounds of what is parsed
 * (size, lines, nesting: refused before any parse), its files against its descriptor and the URL it
 * is published to (`verifyPackage`), then the dependency policy on its declared dependencies and the
 * modules `server.js` loads (its one parse). A publish thread runs it on what was uploaded, and
 * `tessera package` on what it wrote, so that a package the packager accepts is one the registry
 * accepts. Answers the descriptor; throws SERVER_SCRIPT_TOO_LARGE, PACKAGE_TOO_COMPLEX,
 * PACKAGE_NOT_VALID or DEPENDENCY_NOT_ALLOWED.
 */
export function checkPackage(files: ReadonlyMap<string, Buffer>, name: string, version: string, rules: PackageRules): PackagedDescriptor {
  const server = files.get('server.js');
  if (server) assertServerScriptWithinBounds(server, rules.serverScript);
  const descriptor = verifyPackage(files, name, version);
  checkPackagedComponent(descriptor, server?.toString('utf8'), rules.dependencyPolicy);
  return descriptor;
}
