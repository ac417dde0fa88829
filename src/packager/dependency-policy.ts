import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'esbuild';
import type { DependencyPolicy } from '../config/config';
import { matchesNamePattern } from '../config/name-pattern';
import { TesseraError } from '../errors/errors';

const BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith('_')));

/** `lodash/fp` → `lodash`, `@scope/pkg/sub` → `@scope/pkg`; undefined for relative and absolute paths. */
function packageNameOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Why the policy refuses a module specifier, or undefined when it accepts it. */
function refusalOf(specifier: string, policy: DependencyPolicy): { dependency: string; reason: string } | undefined {
  if (specifier.startsWith('node:')) return { dependency: specifier, reason: 'a Node built-in' };
  if (specifier.endsWith('.node')) return { dependency: specifier, reason: 'a native module' };
  const name = packageNameOf(specifier);
  if (name === undefined || matchesNamePattern(policy.allow, name)) return undefined;
  if (BUILTINS.has(name) || BUILTINS.has(specifier)) return { dependency: name, reason: 'a Node built-in' };
  if (matchesNamePattern(policy.deny, name)) return { dependency: name, reason: 'on the registry deny-list' };
  return undefined;
}

/**
 * The dependency policy (decisions §7): Node built-ins, native modules and the configured deny-list
 * are refused, except what the allow-list names. A check collects every offender from every source
 * (declared dependencies, the modules the bundle reaches, a published bundle's requires) and then
 * refuses them all at once, so an author sees the whole list in one answer.
 */
export class DependencyPolicyCheck {
  readonly #policy: DependencyPolicy;
  readonly #refused = new Map<string, string>();

  constructor(policy: DependencyPolicy) {
    this.#policy = policy;
  }

  #consider(specifier: string): boolean {
    const refusal = refusalOf(specifier, this.#policy);
    if (refusal) this.#refused.set(refusal.dependency, refusal.reason);
    return refusal !== undefined;
  }

  /** The `dependencies` a descriptor declares. */
  declared(dependencies: Record<string, string> | undefined): this {
    for (const name of Object.keys(dependencies ?? {})) this.#consider(name);
    return this;
  }

  /**
   * An esbuild plugin that sees every import the server bundle makes, its dependencies' included.
   * A refused module is left out of the bundle (external) so that the build goes on and reports
   * every offender, not only the first.
   */
  esbuildPlugin(): Plugin {
    return {
      name: 'tessera-dependency-policy',
      setup: (build) => {
        build.onResolve({ filter: /^[^./]|\.node$/ }, (args) => (this.#consider(args.path) ? { path: args.path, external: true } : undefined));
      },
    };
  }

  /** Installed packages the bundle pulled in (esbuild's input paths) that build native code. */
  nativePackages(componentDir: string, bundleInputs: readonly string[]): this {
    const packageDirs = new Set<string>();
    for (const input of bundleInputs) {
      const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.split(path.sep).join('/'));
      if (match) packageDirs.add(match[1]!);
    }
    for (const dir of packageDirs) {
      const absolute = path.join(componentDir, dir);
      if (existsSync(path.join(absolute, 'binding.gyp')) || readsGypfile(path.join(absolute, 'package.json'))) {
        this.#refused.set(dir.slice(dir.lastIndexOf('node_modules/') + 'node_modules/'.length), 'a native module');
      }
    }
    return this;
  }

  /** Literal `require("…")` calls left in an already bundled server script (a package packed elsewhere). */
  requiresIn(serverCode: string | undefined): this {
    for (const match of (serverCode ?? '').matchAll(/\brequire\(\s*(["'`])([^"'`]+)\1\s*\)/g)) this.#consider(match[2]!);
    return this;
  }

  /** DEPENDENCY_NOT_ALLOWED naming each offender in `details.dependencies`, when there is any. */
  throwIfRefused(): void {
    if (this.#refused.size === 0) return;
    const offenders = [...this.#refused].sort(([a], [b]) => a.localeCompare(b));
    throw new TesseraError(
      'DEPENDENCY_NOT_ALLOWED',
      `The component depends on modules the registry refuses: ${offenders.map(([name, reason]) => `${name} (${reason})`).join(', ')}.`,
      { details: { dependencies: offenders.map(([name]) => name) } },
    );
  }
}

function readsGypfile(packageJson: string): boolean {
  try {
    return (JSON.parse(readFileSync(packageJson, 'utf8')) as { gypfile?: unknown }).gypfile === true;
  } catch {
    return false;
  }
}

/**
 * The policy check for a package that arrives already packed (the publish route): its declared
 * dependencies and the modules its bundled server script still requires.
 *
 * @example checkPackagedComponent(descriptor, files.get('server.js')?.toString('utf8'), config.dependencyPolicy)
 */
export function checkPackagedComponent(descriptor: { dependencies?: Record<string, string> }, serverCode: string | undefined, policy: DependencyPolicy): void {
  new DependencyPolicyCheck(policy).declared(descriptor.dependencies).requiresIn(serverCode).throwIfRefused();
}
