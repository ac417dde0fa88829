import semver from 'semver';
import { isComponentName } from '../descriptor/descriptor-schema';
import type { PackagedDescriptor, PackagedFiles, ParameterDefinition } from '../descriptor/descriptor-types';

/**
 * The fields of a published descriptor the registry serves and renders from, kept in memory for
 * every version (and in the catalog's index): what resolves, validates, wraps and lists a version.
 * The rest (author, repository, dependencies, parameter examples…) stays in storage and is read
 * when `~info` asks for the whole descriptor.
 */
export interface DescriptorSummary {
  name: string;
  version: string;
  description?: string;
  oc: Pick<PackagedDescriptor['oc'], 'container' | 'renderInfo' | 'state' | 'plugins' | 'date' | 'publisher' | 'actions'> & {
    files: Pick<PackagedFiles, 'template' | 'dataProvider' | 'static' | 'env'>;
    /** The declared parameters, without their examples (documentation only, of any size). */
    parameters?: Record<string, Omit<ParameterDefinition, 'example'>>;
  };
}

/** The summary of a whole descriptor: its fields copied, never shared, so the descriptor itself can be let go. */
export function summarize(descriptor: PackagedDescriptor): DescriptorSummary {
  const { oc } = descriptor;
  const summary: DescriptorSummary = {
    name: descriptor.name,
    version: descriptor.version,
    description: descriptor.description,
    oc: {
      files: { template: oc.files.template, dataProvider: oc.files.dataProvider, static: oc.files.static, env: oc.files.env },
      container: oc.container,
      renderInfo: oc.renderInfo,
      state: oc.state,
      plugins: oc.plugins,
      parameters: oc.parameters && Object.fromEntries(Object.entries(oc.parameters).map(([name, { example: _example, ...definition }]) => [name, definition])),
      date: oc.date,
      publisher: oc.publisher,
      actions: oc.actions,
    },
  };
  // Through JSON, as the index stores it: absent fields drop out and nothing of the descriptor is kept.
  return JSON.parse(JSON.stringify(summary)) as DescriptorSummary;
}

/**
 * Whether a value read from the catalog's index has the shape of a summary. The index is written
 * by registries only; this guards against a damaged or foreign object, not a hostile one.
 */
export function isSummary(value: unknown): value is DescriptorSummary {
  const summary = value as DescriptorSummary | undefined;
  const files = summary?.oc?.files;
  return (
    typeof summary?.name === 'string' &&
    isComponentName(summary.name) &&
    typeof summary.version === 'string' &&
    semver.valid(summary.version) === summary.version &&
    typeof summary.oc.date === 'number' &&
    typeof files?.template?.type === 'string' &&
    typeof files.template.hashKey === 'string' &&
    Array.isArray(files.static)
  );
}
