import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import { defaultConfig, type DependencyPolicy, type PublishToken, type RegistryConfig, type RegistryPlugin } from './config';
import configSchema from './config-schema.json';

/** The settings a configuration file (or the TESSERA_* variables) may hold; see config-schema.json. */
interface ConfigSettings {
  port?: number;
  host?: string;
  baseUrl?: string;
  storage?: string;
  staticBaseUrl?: string;
  pollIntervalSeconds?: number;
  internalAddress?: string;
  replicaHeartbeatSeconds?: number;
  unpublishWindowHours?: number;
  auditRetentionDays?: number;
  adminTokenSha256?: string;
  development?: boolean;
  logRequests?: boolean;
  env?: Record<string, string>;
  plugins?: string;
  publishTokens?: PublishToken[];
  dependencyPolicy?: Partial<DependencyPolicy>;
  cors?: Partial<RegistryConfig['cors']>;
  tenants?: Partial<RegistryConfig['tenants']>;
  limits?: Partial<RegistryConfig['limits']>;
}

export interface LoadConfigOptions {
  /** Path of a JSON configuration file; relative paths inside it are relative to its folder. */
  file?: string;
  /** Environment variables; TESSERA_* ones override the file (relative paths from the working folder). */
  env?: NodeJS.ProcessEnv;
  /** What file and variables are applied to; defaultConfig() when absent. */
  base?: RegistryConfig;
}

/** Start-up configuration that cannot be used; `details.problems` names each bad key or variable. */
export class ConfigError extends Error {
  readonly details: { problems: string[] };

  constructor(problems: string[]) {
    super('The registry configuration is not valid; nothing was started.');
    this.name = 'ConfigError';
    this.details = { problems };
  }
}

// verbose: errors carry their schema, so an unknown key's message can list the known ones.
const ajv = new Ajv({ allErrors: true, strict: true, verbose: true });
const checkSettings = ajv.compile<ConfigSettings>(configSchema);

const SCHEMA_PROPERTIES = configSchema.properties as Record<string, { type: string; properties?: Record<string, { type: string }> }>;

/** Each TESSERA_* variable and the setting it holds, derived from the schema (`limits.publishBytes` ↔ TESSERA_LIMITS_PUBLISH_BYTES). */
const ENV_VARIABLES: Array<{ variable: string; key: string[]; type: string }> = Object.entries(SCHEMA_PROPERTIES).flatMap(([key, schema]) => {
  if (key === '$schema') return [];
  if (key === 'limits') {
    return Object.entries(schema.properties!).map(([limit, s]) => ({ variable: `TESSERA_LIMITS_${snake(limit)}`, key: ['limits', limit], type: s.type }));
  }
  return [{ variable: `TESSERA_${snake(key)}`, key: [key], type: schema.type }];
});

/** The names of the TESSERA_* variables the registry reads, for deployments to be checked against. */
export const CONFIG_VARIABLES: readonly string[] = ENV_VARIABLES.map(({ variable }) => variable);

/**
 * The registry configuration: defaults, then the JSON file, then TESSERA_* environment variables.
 * Everything is validated before anything starts; every problem is reported at once, each naming
 * the file key or the variable at fault.
 */
export function loadConfig(options: LoadConfigOptions = {}): RegistryConfig {
  const config = copyConfig(options.base ?? defaultConfig());
  const problems: string[] = [];
  let pluginsModule: string | undefined;

  if (options.file !== undefined) {
    const settings = readConfigFile(options.file, problems);
    if (settings) {
      pluginsModule = applySettings(config, settings, path.dirname(path.resolve(options.file))) ?? pluginsModule;
    }
  }
  const fromEnv = readEnvSettings(options.env ?? {}, problems);
  if (fromEnv) pluginsModule = applySettings(config, fromEnv, process.cwd()) ?? pluginsModule;

  if (problems.length === 0 && pluginsModule !== undefined) {
    const plugins = loadPlugins(pluginsModule, problems);
    const names = new Set(plugins.map((plugin) => plugin.name));
    config.plugins = [...config.plugins.filter((plugin) => !names.has(plugin.name)), ...plugins];
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function readConfigFile(file: string, problems: string[]): ConfigSettings | undefined {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read as JSON: ${(error as Error).message}`;
    problems.push(`${file} ${reason}`);
    return undefined;
  }
  if (checkSettings(json)) return json;
  problems.push(...checkSettings.errors!.map((e) => `${file}: ${describe(e)}`));
  return undefined;
}

function readEnvSettings(env: NodeJS.ProcessEnv, problems: string[]): ConfigSettings | undefined {
  const settings: Record<string, unknown> = {};
  const variableOf = new Map<string, string>();
  for (const { variable, key, type } of ENV_VARIABLES) {
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    let value: unknown = raw;
    if (type === 'integer' || type === 'number') value = /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
    if (type === 'boolean') value = raw === 'true' ? true : raw === 'false' ? false : raw;
    if (type === 'object' || type === 'array') {
      try {
        value = JSON.parse(raw);
      } catch (error) {
        problems.push(`${variable} must hold JSON (${type === 'array' ? 'an array' : 'an object'}): ${(error as Error).message}`);
        continue;
      }
    }
    const [first, second] = key as [string, string | undefined];
    if (second === undefined) settings[first] = value;
    else settings[first] = { ...(settings[first] as object), [second]: value };
    variableOf.set(`/${key.join('/')}`, variable);
  }
  if (checkSettings(settings)) return settings;
  for (const error of checkSettings.errors!) {
    const owner = [...variableOf].find(([pointer]) => error.instancePath === pointer || error.instancePath.startsWith(`${pointer}/`));
    problems.push(owner ? `${owner[1]}: ${describe(error)}` : describe(error));
  }
  return undefined;
}

/** Applies validated settings; answers the plugins module path they name, resolved. */
function applySettings(config: RegistryConfig, settings: ConfigSettings, relativeTo: string): string | undefined {
  if (settings.port !== undefined) config.port = settings.port;
  if (settings.host !== undefined) config.host = settings.host;
  if (settings.baseUrl !== undefined) config.baseUrl = settings.baseUrl.endsWith('/') ? settings.baseUrl : `${settings.baseUrl}/`;
  if (settings.storage !== undefined) config.storagePath = settings.storage.startsWith('s3://') ? settings.storage : path.resolve(relativeTo, settings.storage);
  if (settings.staticBaseUrl !== undefined) config.staticBaseUrl = settings.staticBaseUrl.endsWith('/') ? settings.staticBaseUrl : `${settings.staticBaseUrl}/`;
  if (settings.pollIntervalSeconds !== undefined) config.pollIntervalSeconds = settings.pollIntervalSeconds;
  if (settings.internalAddress !== undefined) config.internalAddress = settings.internalAddress;
  if (settings.replicaHeartbeatSeconds !== undefined) config.replicaHeartbeatSeconds = settings.replicaHeartbeatSeconds;
  if (settings.unpublishWindowHours !== undefined) config.unpublishWindowHours = settings.unpublishWindowHours;
  if (settings.auditRetentionDays !== undefined) config.auditRetentionDays = settings.auditRetentionDays;
  if (settings.adminTokenSha256 !== undefined) config.adminTokenSha256 = settings.adminTokenSha256;
  if (settings.development !== undefined) config.development = settings.development;
  if (settings.logRequests !== undefined) config.logRequests = settings.logRequests;
  if (settings.env !== undefined) config.env = { ...config.env, ...settings.env };
  if (settings.publishTokens !== undefined) config.publishTokens = settings.publishTokens;
  if (settings.dependencyPolicy !== undefined) config.dependencyPolicy = { ...config.dependencyPolicy, ...settings.dependencyPolicy };
  if (settings.cors !== undefined) config.cors = { ...config.cors, ...settings.cors };
  if (settings.tenants !== undefined) config.tenants = { ...config.tenants, ...settings.tenants };
  if (settings.limits !== undefined) config.limits = { ...config.limits, ...settings.limits };
  return settings.plugins === undefined ? undefined : path.resolve(relativeTo, settings.plugins);
}

/** The plugins a module exports: an array (or `plugins` / `default` holding one) of {name, description, func}. */
function loadPlugins(modulePath: string, problems: string[]): RegistryPlugin[] {
  const at = `plugins (${modulePath})`;
  let exported: unknown;
  try {
    // A CommonJS module named by the configuration, loaded once at start-up.
    exported = require(modulePath);
  } catch (error) {
    problems.push(`${at} cannot be loaded: ${(error as Error).message.split('\n')[0]}`);
    return [];
  }
  const record = exported as { plugins?: unknown; default?: unknown };
  const list = Array.isArray(exported) ? exported : Array.isArray(record?.plugins) ? record.plugins : Array.isArray(record?.default) ? record.default : undefined;
  if (!list) {
    problems.push(`${at} must export an array of plugins, each {name, description, func}`);
    return [];
  }
  const plugins: RegistryPlugin[] = [];
  list.forEach((item: unknown, index) => {
    const plugin = item as Partial<RegistryPlugin> | null;
    if (typeof plugin?.name !== 'string' || plugin.name === '') problems.push(`${at}[${index}].name must be a non-empty string`);
    else if (typeof plugin.func !== 'function') problems.push(`${at}[${index}].func must be a function`);
    else plugins.push({ ...plugin, name: plugin.name, description: typeof plugin.description === 'string' ? plugin.description : '', func: plugin.func });
  });
  return plugins;
}

/** One ajv error as "<key> <what is wrong>", keys written as in the file (`publishTokens[0].sha256`). */
function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const at = keyOf(e.instancePath);
  switch (e.keyword) {
    case 'additionalProperties': {
      const known = Object.keys((e.parentSchema as { properties?: object }).properties ?? {}).filter((k) => k !== '$schema');
      return `${join(at, String(p.additionalProperty))} is not a known setting; known: ${known.join(', ')}`;
    }
    case 'required':
      return `${join(at, String(p.missingProperty))} is required`;
    case 'type':
      return `${at || 'the configuration'} must be ${p.type === 'integer' ? 'an integer' : p.type === 'object' || p.type === 'array' ? `an ${String(p.type)}` : `a ${String(p.type)}`}`;
    case 'pattern':
      return `${at} ${PATTERN_MESSAGES[String(p.pattern)] ?? `must match ${String(p.pattern)}`}`;
    case 'minimum':
      return `${at} must be at least ${String(p.limit)}`;
    case 'maximum':
      return `${at} must be at most ${String(p.limit)}`;
    case 'minItems':
    case 'minLength':
      return `${at} must not be empty`;
    default:
      return `${at} ${e.message ?? 'is not valid'}`;
  }
}

const PATTERN_MESSAGES: Record<string, string> = {
  '^[0-9a-f]{64}$': 'must be the sha256 of the token: 64 lowercase hex characters',
  '^[a-z0-9*-]+$': 'must be a component-name pattern: lowercase letters, digits, dashes and *',
  '^https?://[^\\s]+$': 'must be an http:// or https:// URL',
  '^(https?://)?[^\\s/?#]+/?$': 'must be a host, host:port or http://host:port',
};

function keyOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((key, segment) => (/^\d+$/.test(segment) ? `${key}[${segment}]` : join(key, segment)), '');
}

const join = (key: string, segment: string): string => (key === '' ? segment : `${key}.${segment}`);

function snake(camel: string): string {
  return camel.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
}

/** A copy whose nested objects can be changed without touching the base (plugin functions are kept by reference). */
function copyConfig(config: RegistryConfig): RegistryConfig {
  return { ...config, env: { ...config.env }, plugins: [...config.plugins], publishTokens: [...config.publishTokens], tenants: { ...config.tenants, weights: { ...config.tenants.weights } }, limits: { ...config.limits } };
}
