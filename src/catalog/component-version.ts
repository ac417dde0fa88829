import type { PackagedDescriptor } from '../descriptor/descriptor-types';
import type { ComponentCode } from '../sandbox/protocol';
import type { StorageAdapter } from '../storage/storage-adapter';
import { ENV_FILE } from '../packager/package-component';
import { templateTypeInfo } from '../templates/template-types';
import { compileParameterValidator, type ParameterValidator } from './parameter-validator';

/** One published version as the registry uses it: descriptor, validator and code, each prepared once. */
export class ComponentVersion {
  readonly name: string;
  readonly version: string;
  readonly descriptor: PackagedDescriptor;
  /** Identifies this version's code in the sandbox workers. */
  readonly sandboxKey: string;
  readonly validateParameters: ParameterValidator;
  readonly env: Record<string, string>;
  readonly #storage: StorageAdapter;
  #code: Promise<ComponentCode> | undefined;

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
  loadCode(): Promise<ComponentCode> {
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
  async #readCode(): Promise<ComponentCode> {
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
      plugins: this.descriptor.oc.plugins ?? [],
    };
  }

  static async read(storage: StorageAdapter, name: string, version: string): Promise<ComponentVersion | undefined> {
    const raw = await storage.readFile(name, version, 'package.json');
    if (!raw) return undefined;
    const descriptor = JSON.parse(raw.toString('utf8')) as PackagedDescriptor;
    const envFile = descriptor.oc.files.env ? await storage.readFile(name, version, ENV_FILE) : undefined;
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
