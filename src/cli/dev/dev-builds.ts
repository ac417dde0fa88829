import semver from 'semver';
import type { Catalog } from '../../catalog/catalog';
import { packageComponent } from '../../packager/package-component';

export interface DevBuild {
  name: string;
  /** The version in the component's package.json. */
  version: string;
  /** The version this build is stored and served as: `<version>-dev.<n>`. */
  servedAs: string;
  milliseconds: number;
}

/**
 * Packages component folders into the development registry's storage. Stored versions are
 * immutable and the sandbox keeps warm code per version, so each build is stored as a new
 * prerelease (`1.0.0-dev.1`, `1.0.0-dev.2`, …); the latest version of a component with no
 * stable version is its highest prerelease, so requests without a version get the newest build.
 */
export class DevBuilds {
  readonly #catalog: Catalog;
  readonly #counts = new Map<string, number>();
  /** Which folder builds which component, so that two folders cannot claim one name. */
  readonly #folders = new Map<string, string>();

  constructor(catalog: Catalog) {
    this.#catalog = catalog;
  }

  async build(dir: string): Promise<DevBuild> {
    const started = performance.now();
    const { descriptor, files } = await packageComponent(dir);
    const { name, version } = descriptor;
    const owner = this.#folders.get(name);
    if (owner !== undefined && owner !== dir) throw new Error(`${dir} and ${owner} both hold component "${name}"; serve one of them.`);
    this.#folders.set(name, dir);

    const count = (this.#counts.get(name) ?? 0) + 1;
    this.#counts.set(name, count);
    const servedAs = devVersion(version, count);
    files.set('package.json', Buffer.from(JSON.stringify({ ...descriptor, version: servedAs }, null, 2)));
    await this.#catalog.publish(name, servedAs, files);
    return { name, version, servedAs, milliseconds: Math.round(performance.now() - started) };
  }
}

function devVersion(version: string, count: number): string {
  const parsed = semver.parse(version)!;
  const prerelease = parsed.prerelease.length > 0 ? `${parsed.prerelease.join('.')}.` : '';
  return `${parsed.major}.${parsed.minor}.${parsed.patch}-${prerelease}dev.${count}`;
}
