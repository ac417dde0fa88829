import type { PackagedDescriptor } from '../descriptor/descriptor-types';
import { ENV_FILE, SERVER_SOURCE_MAP } from '../descriptor/package-files';
import type { StorageAdapter } from '../storage/storage-adapter';
import { templateTypeInfo } from '../templates/template-types';
import type { DescriptorSummary } from './descriptor-summary';
import { compileParameterValidator, type ParameterValidator } from './parameter-validator';

/** A version's view and server code as stored. */
export interface StoredCode {
  template: string;
  templateKey: string;
  server?: string;
}

/**
 * One published version as the registry uses it. What every request needs is in memory (the
 * descriptor's summary); the rest is read or prepared on first use and kept: the parameter
 * validator, the code with its env file, and (not kept) the whole descriptor for `~info`.
 */
export class ComponentVersion {
  readonly name: string;
  readonly version: string;
  /** The descriptor's fields the registry serves and renders from (see DescriptorSummary); `loadDescriptor()` reads the whole one. */
  readonly descriptor: DescriptorSummary;
  /** Identifies this version's code in the sandbox hosts. */
  readonly sandboxKey: string;
  /**
   * What its cookies are named under in the visitor's jar (`oc.<scope>.<cookie>`): the name, then
   * `~<generation>` of the name's claim once it has had another owner, so that a name's next owner
   * never reads what its former owner's code left there (decisions §15).
   */
  readonly cookieScope: string;
  readonly #storage: StorageAdapter;
  #validator: ParameterValidator | undefined;
  #code: Promise<StoredCode> | undefined;
  #env: Record<string, string> | undefined;

  constructor(descriptor: DescriptorSummary, storage: StorageAdapter) {
    this.name = descriptor.name;
    this.version = descriptor.version;
    this.descriptor = descriptor;
    this.sandboxKey = `${descriptor.name}@${descriptor.version}#${descriptor.oc.files.dataProvider?.hashKey ?? 'static'}`;
    const generation = descriptor.oc.publisher?.generation ?? 1;
    this.cookieScope = generation > 1 ? `${descriptor.name}~${generation}` : descriptor.name;
    this.#storage = storage;
  }

  get templateKey(): string {
    return this.descriptor.oc.files.template.hashKey;
  }

  get templateType(): string {
    return this.descriptor.oc.files.template.type;
  }

  /** Validates a request's parameters; compiled on first use (most versions of a large catalog are never rendered). */
  get validateParameters(): ParameterValidator {
    this.#validator ??= compileParameterValidator(this.descriptor.oc.parameters);
    return this.#validator;
  }

  /** The version's env file (`ctx.env`), read with its code: known once `loadCode()` has answered. */
  get env(): Record<string, string> {
    if (!this.#env) throw new Error(`The env of ${this.name}@${this.version} is read with its code: await loadCode() first.`);
    return this.#env;
  }

  /** The template and server code (and the env file), read from storage on first use and kept. */
  loadCode(): Promise<StoredCode> {
    this.#code ??= this.#readCode().catch((error: unknown) => {
      this.#code = undefined;
      throw error;
    });
    return this.#code;
  }

  /** The source map of its server code, if its package has one: read on each call (its reader keeps what it needs, bounded). */
  async readServerMap(): Promise<Buffer | undefined> {
    return this.descriptor.oc.files.dataProvider ? this.#storage.readFile(this.name, this.version, SERVER_SOURCE_MAP) : undefined;
  }

  /** The whole published descriptor, as stored (read on each call: `~info` is not a hot path, and memory is per version). */
  async loadDescriptor(): Promise<PackagedDescriptor> {
    const raw = await this.#storage.readFile(this.name, this.version, 'package.json');
    if (!raw) throw new Error(`${this.name}@${this.version} has no package.json in storage.`);
    return JSON.parse(raw.toString('utf8')) as PackagedDescriptor;
  }

  /**
   * The sandbox evaluates the type's server template: `template.js` itself (es6) or
   * `template.server.js` (types whose browser code is not a function of the model). Either
   * registers `oc.components[templateKey] = (props) => html`.
   */
  async #readCode(): Promise<StoredCode> {
    const templateFile = templateTypeInfo(this.templateType)?.serverTemplate ?? 'template.js';
    const { files } = this.descriptor.oc;
    const [template, server, envFile] = await Promise.all([
      this.#storage.readFile(this.name, this.version, templateFile),
      files.dataProvider ? this.#storage.readFile(this.name, this.version, 'server.js') : undefined,
      files.env ? this.#storage.readFile(this.name, this.version, ENV_FILE) : undefined,
    ]);
    if (!template) throw new Error(`${this.name}@${this.version} has no ${templateFile} in storage.`);
    if (files.dataProvider && !server) throw new Error(`${this.name}@${this.version} has no server.js in storage.`);
    if (files.env && !envFile) throw new Error(`${this.name}@${this.version} has no ${ENV_FILE} in storage.`);
    this.#env = envFile ? parseEnvFile(envFile.toString('utf8')) : {};
    return {
      template: template.toString('utf8'),
      templateKey: this.templateKey,
      server: server?.toString('utf8'),
    };
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
