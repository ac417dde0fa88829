import { builtinModules } from 'node:module';
import type { DependencyPolicy } from '../config/config';
import { matchesNamePattern } from '../config/name-pattern';
import { TesseraError } from '../errors/errors';
import { requiredModules } from './required-modules';

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
 * (declared dependencies, the modules a server script loads, what the packager sees while bundling)
 * and then refuses them all at once, so an author sees the whole list in one answer.
 */
export class DependencyPolicyCheck {
  readonly #policy: DependencyPolicy;
  readonly #refused = new Map<string, string>();

  constructor(policy: DependencyPolicy) {
    this.#policy = policy;
  }

  /** Records a module specifier the component loads; answers whether the policy refuses it. */
  consider(specifier: string): boolean {
    const refusal = refusalOf(specifier, this.#policy);
    if (refusal) this.#refused.set(refusal.dependency, refusal.reason);
    return refusal !== undefined;
  }

  /** Records an offender found another way (an installed package that builds native code). */
  refuse(dependency: string, reason: string): void {
    this.#refused.set(dependency, reason);
  }

  /** The `dependencies` a descriptor declares. */
  declared(dependencies: Record<string, string> | undefined): this {
    for (const name of Object.keys(dependencies ?? {})) this.consider(name);
    return this;
  }

  /** The modules a server script loads, found by parsing it (see `requiredModules`). */
  loadedBy(serverCode: string | undefined): this {
    if (serverCode !== undefined) for (const specifier of requiredModules(serverCode)) this.consider(specifier);
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

/**
 * The check of a packaged component, run alike by `tessera package` on what it wrote and by the
 * registry on what is published (both through `checkPackage`): its declared dependencies and the
 * modules its `server.js` loads.
 *
 * @example checkPackagedComponent(descriptor, files.get('server.js')?.toString('utf8'), config.dependencyPolicy)
 */
export function checkPackagedComponent(descriptor: { dependencies?: Record<string, string> }, serverCode: string | undefined, policy: DependencyPolicy): void {
  new DependencyPolicyCheck(policy).declared(descriptor.dependencies).loadedBy(serverCode).throwIfRefused();
}
