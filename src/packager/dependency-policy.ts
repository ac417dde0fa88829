import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'esbuild';
import type { DependencyPolicyCheck } from '../dependency-policy/dependency-policy-check';

/**
 * What only the packager sees of the dependency policy, recorded on the shared check: an esbuild
 * plugin that sees every import the server bundle makes, its dependencies' included. A refused
 * module is left out of the bundle (external) so that the build goes on and reports every
 * offender, not only the first.
 */
export function dependencyPolicyPlugin(check: DependencyPolicyCheck): Plugin {
  return {
    name: 'tessera-dependency-policy',
    setup: (build) => {
      build.onResolve({ filter: /^[^./]|\.node$/ }, (args) => (check.consider(args.path) ? { path: args.path, external: true } : undefined));
    },
  };
}

/** Installed packages the bundle pulled in (esbuild's input paths) that build native code. */
export function refuseNativePackages(check: DependencyPolicyCheck, componentDir: string, bundleInputs: readonly string[]): void {
  const packageDirs = new Set<string>();
  for (const input of bundleInputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.split(path.sep).join('/'));
    if (match) packageDirs.add(match[1]!);
  }
  for (const dir of packageDirs) {
    const absolute = path.join(componentDir, dir);
    if (existsSync(path.join(absolute, 'binding.gyp')) || readsGypfile(path.join(absolute, 'package.json'))) {
      check.refuse(dir.slice(dir.lastIndexOf('node_modules/') + 'node_modules/'.length), 'a native module');
    }
  }
}

function readsGypfile(packageJson: string): boolean {
  try {
    return (JSON.parse(readFileSync(packageJson, 'utf8')) as { gypfile?: unknown }).gypfile === true;
  } catch {
    return false;
  }
}
