import semver from 'semver';
import { contentHash } from '../descriptor/content-hash';
import type { PackagedDescriptor } from '../descriptor/descriptor-types';
import { SERVER_SOURCE_MAP } from '../descriptor/package-files';
import { validateDescriptor } from '../descriptor/validate-descriptor';
import { readSourceMap } from '../tail/source-map';
import { TesseraError } from '../errors/errors';
import { TEMPLATE_TYPE_NAMES, templateTypeInfo } from '../templates/template-types';
import { serverTemplateKeyProblem, templateKeyProblem } from './template-key';

/**
 * Checks an unpacked package against the URL it was published to: the descriptor is a valid
 * packaged descriptor naming that component and version, every file it announces is there, and
 * the hashes and sizes it records are those of the files. Throws PACKAGE_NOT_VALID listing every
 * problem at once; answers the descriptor when there is none.
 */
export function verifyPackage(files: ReadonlyMap<string, Buffer>, name: string, version: string): PackagedDescriptor {
  const problems: string[] = [];
  if (semver.valid(version) !== version) problems.push(`the URL version "${version}" is not a semantic version (major.minor.patch)`);

  const raw = files.get('package.json');
  let json: unknown;
  if (!raw) {
    problems.push('package.json is missing');
  } else {
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch (error) {
      problems.push(`package.json is not valid JSON: ${(error as Error).message}`);
    }
  }
  if (json !== undefined && nestingOver(json, MAX_NESTING)) {
    problems.push(`package.json nests deeper than ${MAX_NESTING} levels`);
    json = undefined;
  }
  if (json !== undefined) {
    const checked = validateDescriptor(json);
    if (!checked.ok) problems.push(...checked.problems);
    problems.push(...descriptorFileProblems(json as PackagedDescriptor, files, name, version));
  }
  if (problems.length > 0) {
    throw new TesseraError('PACKAGE_NOT_VALID', `The package of ${name}@${version} is not valid.`, { details: { problems } });
  }
  return json as PackagedDescriptor;
}

/** The deepest a descriptor's values nest: the registry writes it again, and serves it in `~info`. */
const MAX_NESTING = 64;

/** Whether a parsed JSON value nests deeper than `max` (walked without recursion: a deep value must not overflow the stack here). */
function nestingOver(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** What the descriptor says against the URL and the files. Tolerates a malformed descriptor (the schema already said why). */
function descriptorFileProblems(descriptor: PackagedDescriptor, files: ReadonlyMap<string, Buffer>, name: string, version: string): string[] {
  const problems: string[] = [];
  if (typeof descriptor !== 'object' || descriptor === null) return problems;
  if (typeof descriptor.name === 'string' && descriptor.name !== name) problems.push(`/name "${descriptor.name}" is not the URL name "${name}"`);
  if (typeof descriptor.version === 'string' && descriptor.version !== version) {
    problems.push(`/version "${descriptor.version}" is not the URL version "${version}"`);
  }
  const oc = descriptor.oc as Partial<PackagedDescriptor['oc']> | undefined;
  if (typeof oc !== 'object' || oc === null) return problems;
  if (oc.packaged !== true) problems.push('/oc/packaged must be true: publish the output of "tessera package", not the source folder');

  const template = oc.files?.template;
  const typeInfo = typeof template?.type === 'string' ? templateTypeInfo(template.type) : undefined;
  if (typeof template?.type === 'string' && !typeInfo) {
    problems.push(`/oc/files/template/type "${template.type}" is not a template type this registry renders (${TEMPLATE_TYPE_NAMES.join(', ')})`);
  }
  const templateFile = files.get('template.js');
  if (!templateFile) problems.push('template.js is missing');
  else if (typeof template?.hashKey === 'string') problems.push(...optional(templateKeyProblem(templateFile, template.hashKey)));
  if (typeInfo && typeInfo.serverTemplate !== 'template.js') {
    const serverTemplate = files.get(typeInfo.serverTemplate);
    if (!serverTemplate) problems.push(`${typeInfo.serverTemplate} is missing (template type ${typeInfo.type} renders on the server with it)`);
    else if (typeof template?.hashKey === 'string') problems.push(...optional(serverTemplateKeyProblem(serverTemplate, template.hashKey)));
  }

  const provider = oc.files?.dataProvider;
  if (typeof provider === 'object' && provider !== null) {
    const server = files.get('server.js');
    if (!server) {
      problems.push('server.js is missing (named by /oc/files/dataProvider)');
    } else {
      if (server.length !== provider.size) problems.push(`server.js is ${server.length} bytes, not /oc/files/dataProvider/size ${String(provider.size)}`);
      const hash = contentHash(server);
      if (hash !== provider.hashKey) problems.push(`server.js has sha1 ${hash}, not /oc/files/dataProvider/hashKey "${String(provider.hashKey)}"`);
    }
  }
  if (typeof oc.files?.env === 'string' && !files.has(oc.files.env)) problems.push(`${oc.files.env} is missing (named by /oc/files/env)`);
  const map = files.get(SERVER_SOURCE_MAP);
  const read = map && readSourceMap(map);
  if (read && 'problem' in read) problems.push(`${SERVER_SOURCE_MAP} ${read.problem} (a tail maps stack frames with it: fix it, or leave it out)`);
  return problems;
}

const optional = (problem: string | undefined): string[] => (problem === undefined ? [] : [problem]);
