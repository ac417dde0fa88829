import type { PackagedDescriptor } from '../descriptor/descriptor-types';
import { ENV_FILE } from '../descriptor/package-files';
import { validateDescriptor } from '../descriptor/validate-descriptor';
import type { StorageAdapter } from '../storage/storage-adapter';
import { templateTypeInfo } from '../templates/template-types';
import { compileParameterValidator, type ParameterValidator } from './parameter-validator';

/** A version's view and server code as stored. */
export interface StoredCode {
  template: string;
  templateKey: string;
  server?: string;
}

/** One published version as the registry uses it: descriptor, validator and code, each prepared once. */
export class ComponentVersion {
  readonly name: string;
  readonly version: string;
  readonly descriptor: PackagedDescriptor;
  /** Identifies this version's code in the sandbox hosts. */
  readonly sandboxKey: string;
  readonly validateParameters: ParameterValidator;
  readonly env: Record<string, string>;
  readonly #storage: StorageAdapter;
  #code: Promise<StoredCode> | undefined;

  constructor(descriptor: PackagedDescriptor, env: Record<string, string>, storage: StorageAdapter) {
    this.name = descriptor.name;
    this.version = descriptor.version;
    this.descriptor = descriptor;
    this.env = env;
    this.sandboxKey = `${descriptor.name}@${descriptor.version}#${descriptor.oc.files.dataProvider?.hashKey ?? 'static'}`;
    this.validateParameters = compileParameterValidator(descriptor.oc.parameters);
    this.#storage = storage;
  }

  get templateKey(): string {
    return this.descriptor.oc.files.template.hashKey;
  }

  get templateType(): string {
    return this.descriptor.oc.files.template.type;
  }

  /** The template and server code, read from storage on first use and kept. */
  loadCode(): Promise<StoredCode> {
    this.#code ??= this.#readCode().catch((error: unknown) => {
      this.#code = undefined;
      throw error;
    });
    return this.#code;
  }

  /**
   * The sandbox evaluates the type's server template: `template.js` itself (es6) or
   * `template.server.js` (types whose browser code is not a function of the model). Either
   * registers `oc.components[templateKey] = (props) => html`.
   */
  async #readCode(): Promise<StoredCode> {
    const templateFile = templateTypeInfo(this.templateType)?.serverTemplate ?? 'template.js';
    const [template, server] = await Promise.all([
      this.#storage.readFile(this.name, this.version, templateFile),
      this.descriptor.oc.files.dataProvider ? this.#storage.readFile(this.name, this.version, 'server.js') : undefined,
    ]);
    if (!template) throw new Error(`${this.name}@${this.version} has no ${templateFile} in storage.`);
    return {
      template: template.toString('utf8'),
      templateKey: this.templateKey,
      server: server?.toString('utf8'),
    };
  }

  /**
   * Reads a stored version and checks that it is whole: a valid packaged descriptor, and the files
   * it names. Rejects, saying what is wrong, when it is not.
   */
  static async read(storage: StorageAdapter, name: string, version: string): Promise<ComponentVersion> {
    const raw = await storage.readFile(name, version, 'package.json');
    if (!raw) throw new Error(`${name}@${version} has no package.json in storage.`);
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
    const [template, server, envFile] = await Promise.all([
      storage.readFile(name, version, 'template.js'),
      descriptor.oc.files.dataProvider ? storage.readFile(name, version, 'server.js') : undefined,
      descriptor.oc.files.env ? storage.readFile(name, version, ENV_FILE) : undefined,
    ]);
    const missing = [!template && 'template.js', descriptor.oc.files.dataProvider && !server && 'server.js', descriptor.oc.files.env && !envFile && ENV_FILE];
    const named = missing.filter((file): file is string => typeof file === 'string');
    if (named.length > 0) throw new Error(`${name}@${version}: ${named.join(', ')} missing from storage.`);
    return new ComponentVersion(descriptor, envFile ? parseEnvFile(envFile.toString('utf8')) : {}, storage);
  }
}

/** `KEY=value` lines; `#` starts a comment; surrounding quotes are dropped. */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith('#')) continue;
    env[match[1]!] = match[2]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return env;
}
