import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { transform } from 'esbuild';
import { defaultConfig, type DependencyPolicy } from '../config/config';
import { DependencyPolicyCheck } from '../dependency-policy/dependency-policy-check';
import { TesseraError } from '../errors/errors';
import type { PackagedDescriptor, SourceDescriptor } from '../descriptor/descriptor-types';
import { ENV_FILE, SERVER_SOURCE_MAP } from '../descriptor/package-files';
import { validateDescriptor } from '../descriptor/validate-descriptor';
import { checkPackage } from '../publish/check-package';
import { serverScriptBounds } from '../publish/server-script-bounds';
import { currentTypeName, SERVER_TEMPLATE, templateTypeInfo } from '../templates/template-types';
import { bundleServer } from './bundle-server';
import { compileTemplate } from './compile-template';
import { dependencyPolicyPlugin, refuseNativePackages } from './dependency-policy';
import { readServerDefinition } from './read-server-definition';

export interface PackagedComponent {
  descriptor: PackagedDescriptor;
  /** Every file of the publishable package by its path inside it, `package.json` included. */
  files: Map<string, Buffer>;
}

export const PACKAGE_FOLDER = '_package';

/** Turns a component's source folder into its publishable package (in memory). */
export async function packageComponent(componentDir: string, options: { dependencyPolicy?: DependencyPolicy } = {}): Promise<PackagedComponent> {
  const source = await readDescriptor(componentDir);
  const minify = source.oc.minify !== false;
  const files = new Map<string, Buffer>();

  const templateType = currentTypeName(source.oc.files.template.type);
  const template = await compileTemplate(componentDir, source.oc.files.template.src, templateType, minify);
  files.set('template.js', Buffer.from(template.code));
  if (template.serverCode !== undefined) files.set(SERVER_TEMPLATE, Buffer.from(template.serverCode));

  const oc: PackagedDescriptor['oc'] = {
    ...source.oc,
    files: { template: { src: 'template.js', type: templateType, hashKey: template.key }, static: source.oc.files.static ?? [] },
    packaged: true,
    date: Date.now(),
  };

  // The dependency policy (decisions §7) sees the declared dependencies, every module the bundle
  // reaches while building, and then the bundle itself as the registry will read it at publish.
  const dependencyPolicy = options.dependencyPolicy ?? defaultConfig().dependencyPolicy;
  const policy = new DependencyPolicyCheck(dependencyPolicy).declared(source.dependencies);
  const installed = Object.keys(source.dependencies ?? {}).map((name) => `node_modules/${name}/package.json`);
  const entry = source.oc.files.data ?? (existsSync(path.join(componentDir, 'server.js')) ? 'server.js' : undefined);
  if (entry === undefined) {
    refuseNativePackages(policy, componentDir, installed);
    policy.throwIfRefused();
  } else {
    if (!existsSync(path.join(componentDir, entry))) throw notValid(`The server entry "${entry}" named by oc.files.data does not exist.`);
    const bundle = await bundleServer(componentDir, entry, minify, [dependencyPolicyPlugin(policy)]);
    refuseNativePackages(policy, componentDir, [...installed, ...bundle.inputs]);
    policy.loadedBy(bundle.code).throwIfRefused();
    const definition = await readServerDefinition(bundle.code);
    files.set('server.js', Buffer.from(bundle.code));
    files.set(SERVER_SOURCE_MAP, Buffer.from(bundle.map));
    oc.files.dataProvider = { src: 'server.js', type: 'node.js', hashKey: bundle.hash, size: bundle.size };
    // Parameters declared in code complete (and win over) those of the descriptor.
    if (Object.keys(definition.parameters).length > 0) oc.parameters = { ...source.oc.parameters, ...definition.parameters };
    if (definition.actions.length > 0) oc.actions = definition.actions;
  }

  for (const folder of oc.files.static) {
    const absolute = path.join(componentDir, folder);
    if (!existsSync(absolute)) throw notValid(`The static folder "${folder}" does not exist.`);
    for (const file of await listFiles(absolute)) {
      const content = await readFile(path.join(absolute, file));
      files.set(path.posix.join(folder, file.split(path.sep).join('/')), minify ? await minifyAsset(file, content) : content);
    }
  }

  if (source.oc.files.env !== undefined) {
    const envPath = path.join(componentDir, source.oc.files.env);
    if (!existsSync(envPath)) throw notValid(`The env file "${source.oc.files.env}" does not exist.`);
    files.set(ENV_FILE, await readFile(envPath));
    oc.files.env = ENV_FILE;
  }

  const descriptor: PackagedDescriptor = { ...source, oc };
  // OC's older components name their type "handlebars", with no compiler to declare: the package
  // names the type by its current name, with the compiler that current name requires.
  if (templateType !== source.oc.files.template.type) {
    descriptor.devDependencies = { ...source.devDependencies, [`${templateType}-compiler`]: templateTypeInfo(templateType)!.version };
  }
  files.set('package.json', Buffer.from(JSON.stringify(descriptor, null, 2)));
  // What the registry checks at publish, on the very files written: the two never disagree.
  checkPackage(files, descriptor.name, descriptor.version, { dependencyPolicy, serverScript: serverScriptBounds(defaultConfig().limits) });
  return { descriptor, files };
}

/** Writes a package to `<componentDir>/_package`, replacing an older one. */
export async function writePackage(componentDir: string, packaged: PackagedComponent): Promise<string> {
  const target = path.join(componentDir, PACKAGE_FOLDER);
  await rm(target, { recursive: true, force: true });
  for (const [file, content] of packaged.files) {
    await mkdir(path.dirname(path.join(target, file)), { recursive: true });
    await writeFile(path.join(target, file), content);
  }
  return target;
}

async function readDescriptor(componentDir: string): Promise<SourceDescriptor> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path.join(componentDir, 'package.json'), 'utf8'));
  } catch (error) {
    throw notValid(`package.json cannot be read as JSON: ${(error as Error).message.replace(componentDir, '.')}`);
  }
  const checked = validateDescriptor(json);
  if (!checked.ok) throw new TesseraError('PACKAGE_NOT_VALID', 'package.json is not a valid component descriptor.', { details: { problems: checked.problems } });
  return checked.descriptor;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

async function minifyAsset(file: string, content: Buffer): Promise<Buffer> {
  const loader = file.endsWith('.css') ? 'css' : file.endsWith('.js') ? 'js' : undefined;
  if (!loader) return content;
  return Buffer.from((await transform(content.toString('utf8'), { loader, minify: true, legalComments: 'none' })).code);
}

const notValid = (problem: string) => new TesseraError('PACKAGE_NOT_VALID', problem, { details: { problems: [problem] } });
