import type { PackagedDescriptor } from '../descriptor/descriptor-types';
import { ENV_FILE } from '../descriptor/package-files';
import { validateDescriptor } from '../descriptor/validate-descriptor';
import type { StorageAdapter } from '../storage/storage-adapter';
import { summarize, type DescriptorSummary } from './descriptor-summary';

/**
 * Reads a stored version and checks that it is whole: a valid packaged descriptor, and the files
 * it names (their presence: their content is read when the version first renders). Answers its
 * summary, or undefined when storage has no such version (not yet, or never committed); rejects,
 * saying what is wrong, when it is there but damaged.
 */
export async function readStoredVersion(storage: StorageAdapter, name: string, version: string): Promise<DescriptorSummary | undefined> {
  const raw = await storage.readFile(name, version, 'package.json');
  if (!raw) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new Error(`${name}@${version}: package.json is not valid JSON (${(error as Error).message}).`);
  }
  const checked = validateDescriptor(json);
  if (!checked.ok) throw new Error(`${name}@${version}: package.json is not a valid descriptor (${checked.problems.join('; ')}).`);
  const descriptor = json as PackagedDescriptor;
  if (descriptor.name !== name || descriptor.version !== version) throw new Error(`${name}@${version}: package.json names ${descriptor.name}@${descriptor.version}.`);
  const { files } = descriptor.oc;
  const [template, server, envFile] = await Promise.all([
    storage.hasFile(name, version, 'template.js'),
    files.dataProvider ? storage.hasFile(name, version, 'server.js') : true,
    files.env ? storage.hasFile(name, version, ENV_FILE) : true,
  ]);
  const missing = [!template && 'template.js', !server && 'server.js', !envFile && ENV_FILE].filter((file): file is string => typeof file === 'string');
  if (missing.length > 0) throw new Error(`${name}@${version}: ${missing.join(', ')} missing from storage.`);
  return summarize(descriptor);
}
