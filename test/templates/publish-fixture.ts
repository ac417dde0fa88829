import type { RegistryConfig } from '../../src/config/config';
import { packTarball } from '../../src/packager/pack-tarball';
import { packagedFixture } from '../helpers/packaged-fixture';
import { hashToken } from '../../src/publish/tenant-tokens';
import { fixture, request, startRegistry, type StartedRegistry } from '../helpers/start-registry';

const TOKEN = 'templates-team-token';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** A registry with no components whose token may publish `templates-*` and `hostile-*`. */
export function startTemplatesRegistry(t: Teardown, configure: (config: RegistryConfig) => void = () => {}): Promise<StartedRegistry> {
  return startRegistry(t, [], (config) => {
    config.publishTokens = [{ tenant: 'templates', sha256: hashToken(TOKEN), components: ['templates-*', 'hostile-*'] }];
    configure(config);
  });
}

/** Packages a fixture as `tessera package` does, packs it and publishes it with `PUT`; answers the template key. */
export async function publishFixture(url: string, name: string): Promise<string> {
  const { descriptor, files } = await packagedFixture(fixture(name));
  const published = await request(`${url}${descriptor.name}/${descriptor.version}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/gzip' },
    body: await packTarball(files),
  });
  if (published.status !== 201) throw new Error(`publishing ${name} answered ${published.status}: ${published.text}`);
  return descriptor.oc.files.template.hashKey;
}

/** A rendered body's HTML with its random wrapper id made fixed. */
export const withFixedId = (html: string): string => html.replace(/ id="[0-9a-f-]{36}"/, ' id="ID"');
