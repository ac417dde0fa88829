import tap from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { defaultConfig, type RegistryConfig } from '../../src/config/config';
import { addDemoPlugins, isDemoFolder } from '../../src/demo/demo-plugins';
import { createRegistry, type Registry } from '../../src/registry';
import { FileSystemStorage } from '../../src/storage/fs-storage';
import { packagedFixture } from './packaged-fixture';
import { theFilesTest } from './the-files-test';

/**
 * Node's runner waits for each test file's process to exit, with no time limit of its own: a stray
 * handle left after the last test (seen once in about a dozen runs of one file: all its tests passed,
 * an esbuild service child stayed) would hang the whole suite. Five seconds after the process's
 * last test has ended (its file's, or its part's: `run-files.ts`), it exits with the code tap set.
 */
tap.teardown(() => {
  setTimeout(() => process.exit(), 5000).unref();
});

/** The repository root (tests run from dist/test/…). */
export const REPO_ROOT = path.join(__dirname, '..', '..', '..');
export const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures');
export const DEMO = path.join(REPO_ROOT, 'demo', 'components');

export const fixture = (name: string): string => path.join(FIXTURES, name);

interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface StartedRegistry {
  registry: Registry;
  /** `http://127.0.0.1:<port>/` */
  url: string;
  storagePath: string;
}

/** A component folder to publish as one tenant's: its descriptor records that tenant as its publisher, as a publish with the tenant's token does. */
export interface TenantComponent {
  dir: string;
  tenant: string;
  /** Published under this version instead of its own (the same code as several versions). */
  version?: string;
  /** Published under this name instead of its own (the same code as several components). */
  name?: string;
  /** Files its package holds besides (or instead of) its own, by path in the package: stored as they are, unchecked. */
  files?: Record<string, Buffer>;
}

/** `dir` published by `tenant`, under `version` when given. */
export const ofTenant = (tenant: string, dir: string, version?: string): TenantComponent => ({ dir, tenant, version });

/**
 * Packages the given component folders into a fresh temporary storage and starts a real registry
 * on a loopback port, closed when the test ends. A folder given alone has no publisher (the
 * configured default tenant's).
 */
export async function startRegistry(
  t: Teardown,
  components: Array<string | TenantComponent>,
  configure: (config: RegistryConfig) => void = () => {},
): Promise<StartedRegistry> {
  const storagePath = await mkdtemp(path.join(os.tmpdir(), 'tessera-test-'));
  const storage = new FileSystemStorage(storagePath);
  for (const component of components) {
    const packaged = await packagedFixture(typeof component === 'string' ? component : component.dir);
    const files = new Map(packaged.files);
    let { name, version } = packaged.descriptor;
    if (typeof component !== 'string') {
      name = component.name ?? name;
      version = component.version ?? version;
      const descriptor = { ...packaged.descriptor, name, version, oc: { ...packaged.descriptor.oc, publisher: { tenant: component.tenant, date: Date.now() } } };
      files.set('package.json', Buffer.from(JSON.stringify(descriptor, null, 2)));
      for (const [file, content] of Object.entries(component.files ?? {})) files.set(file, content);
    }
    await storage.writeVersion(name, version, files);
  }
  const config = defaultConfig();
  config.port = 0;
  config.storagePath = storagePath;
  config.pollIntervalSeconds = 0;
  // One host is enough to render; a second costs every test file's start (sandbox tests ask for TWO_HOSTS).
  config.limits.sandboxHosts = 1;
  config.limits.frontThreads = 1;
  // The demo's components declare the demo's plugins, as `tessera start --with-demo` serves them.
  if (components.some((component) => isDemoFolder(typeof component === 'string' ? component : component.dir))) addDemoPlugins(config);
  configure(config);
  const registry = await createRegistry(config);
  const url = await registry.listen();
  t.teardown(async () => {
    await registry.close();
    await rm(storagePath, { recursive: true, force: true });
  });
  await hostsReady(registry, config.limits.sandboxHosts);
  return { registry, url, storagePath };
}

/** How long a registry's sandbox hosts may take to start, on a machine whose CPUs are busy with other work. */
const HOSTS_START_MS = 60_000;

/**
 * Waits until all the registry's sandbox hosts answer, as a load balancer waits for `/readyz`: a
 * request sent sooner waits for a host at most its execution time limit, which a host's start passes
 * on a busy machine (a test with a limit of one second answered `SANDBOX_CRASHED` so).
 */
async function hostsReady(registry: Registry, hosts: number): Promise<void> {
  const giveUp = performance.now() + HOSTS_START_MS;
  while (registry.pool.stats().hosts < hosts) {
    if (performance.now() > giveUp) throw new Error(`The registry's ${hosts} sandbox host(s) did not all start within ${HOSTS_START_MS / 1000} s.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * One registry for the tests of a file that only read from it (each request stands alone: no test
 * publishes, counts or breaks anything another one sees), started at the first call and closed when
 * the file's tests end: each registry of its own costs a sandbox host's start and its builds.
 */
export function registryOfTheFile(components: Array<string | TenantComponent>, configure?: (config: RegistryConfig) => void): () => Promise<StartedRegistry> {
  let started: Promise<StartedRegistry> | undefined;
  return () => (started ??= startRegistry(theFilesTest(), components, configure));
}

/**
 * The pool as deployed on a small machine: what one host does to its isolates (a spin, a recycle, a
 * lost isolate) must leave the requests routed to the other one unharmed.
 */
export const TWO_HOSTS = (config: RegistryConfig): void => {
  config.limits.sandboxHosts = 2;
};

/** Longer than any time limit a test sets. */
const REQUEST_LIMIT_MS = 60_000;

/** GET/POST with fetch; answers status, headers and the parsed (or raw) body. */
export async function request(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  // A request the registry never answers fails the test instead of holding it.
  const response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_LIMIT_MS), ...init });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body, text };
}
