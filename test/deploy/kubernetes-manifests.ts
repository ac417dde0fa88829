import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';
import type { RegistryConfig } from '../../src/config/config';
import { ConfigError, loadConfig } from '../../src/config/load-config';
import { REPO_ROOT } from '../helpers/start-registry';

export const KUBERNETES_FOLDER = path.join(REPO_ROOT, 'deploy', 'kubernetes');

/** The model of each kind the base holds: its class validates an object against Kubernetes' own schema. */
export const MODELS = {
  'apps/v1 Deployment': Deployment,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'v1 ConfigMap': ConfigMap,
  'v1 Secret': Secret,
  'v1 Service': Service,
} as const;

export interface ManifestFile {
  file: string;
  /** Every YAML document of the file, as parsed. */
  documents: Array<{ apiVersion?: string; kind?: string; metadata?: { name?: string } }>;
}

/** Every file of deploy/kubernetes but kustomization.yaml, parsed. */
export function readManifestFiles(): ManifestFile[] {
  return readdirSync(KUBERNETES_FOLDER)
    .filter((file) => file !== 'kustomization.yaml')
    .sort()
    .map((file) => ({ file, documents: parseAllDocuments(readFileSync(path.join(KUBERNETES_FOLDER, file), 'utf8')).map((document) => document.toJS() as ManifestFile['documents'][number]) }));
}

export function readKustomization(): { resources?: string[]; images?: Array<{ name: string; newName?: string; newTag?: string }> } {
  return parseAllDocuments(readFileSync(path.join(KUBERNETES_FOLDER, 'kustomization.yaml'), 'utf8'))[0]!.toJS();
}

/** The base's objects, each as its model, so that the tests read them typed. */
export interface Manifests {
  deployment: Deployment;
  service: Service;
  autoscaler: HorizontalPodAutoscaler;
  disruptionBudget: PodDisruptionBudget;
  configMaps: ConfigMap[];
  secrets: Secret[];
}

export function readManifests(): Manifests {
  const objects = readManifestFiles().flatMap(({ documents }) => documents);
  const all = <T>(key: keyof typeof MODELS): T[] => objects.filter((object) => `${object.apiVersion} ${object.kind}` === key).map((object) => new MODELS[key](object as never) as T);
  const one = <T>(key: keyof typeof MODELS): T => {
    const found = all<T>(key);
    if (found.length !== 1) throw new Error(`deploy/kubernetes holds ${found.length} ${key} objects, not one`);
    return found[0]!;
  };
  return {
    deployment: one('apps/v1 Deployment'),
    service: one('v1 Service'),
    autoscaler: one('autoscaling/v2 HorizontalPodAutoscaler'),
    disruptionBudget: one('policy/v1 PodDisruptionBudget'),
    configMaps: all('v1 ConfigMap'),
    secrets: all('v1 Secret'),
  };
}

/** The registry's container in the Deployment. */
export function registryContainer(manifests: Manifests) {
  const containers = manifests.deployment.spec!.template.spec!.containers;
  if (containers.length !== 1) throw new Error(`the Deployment runs ${containers.length} containers, not one`);
  return containers[0]!;
}

/** A Secret's value of `key`, from stringData or (base64) data. */
function secretValue(secret: Secret, key: string): string | undefined {
  if (secret.stringData?.[key] !== undefined) return secret.stringData[key];
  const encoded = secret.data?.[key];
  return encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
}

/**
 * The container's environment as the kubelet makes it: literal values, and keys of the base's
 * ConfigMaps and Secrets. A reference to a missing object or key throws, unless it is optional.
 */
/** The pod's fields the container reads through the downward API, as a running pod has them. */
const POD_FIELDS: Record<string, string> = { 'status.podIP': '10.42.0.17' };

export function podEnvironment(manifests: Manifests): Record<string, string> {
  const env: Record<string, string> = {};
  for (const variable of registryContainer(manifests).env ?? []) {
    const { configMapKeyRef: fromMap, secretKeyRef: fromSecret, fieldRef } = variable.valueFrom ?? {};
    let value: string | undefined = variable.value;
    let optional = false;
    if (fieldRef) {
      // What the kubelet fills in from the pod (the downward API): an example of each field read.
      value = POD_FIELDS[fieldRef.fieldPath];
    } else if (fromMap) {
      value = manifests.configMaps.find((map) => map.metadata?.name === fromMap.name)?.data?.[fromMap.key];
      optional = fromMap.optional === true;
    } else if (fromSecret) {
      const secret = manifests.secrets.find((candidate) => candidate.metadata?.name === fromSecret.name);
      value = secret && secretValue(secret, fromSecret.key);
      optional = fromSecret.optional === true;
    }
    if (value !== undefined) env[variable.name] = value;
    else if (!optional) throw new Error(`${variable.name} names a value deploy/kubernetes does not hold`);
  }
  return env;
}

/** The configuration file the container is started with: the ConfigMap key mounted at its `--config` path. */
export function configFile(manifests: Manifests): { path: string; configMap: string; key: string; text: string } {
  const container = registryContainer(manifests);
  const args = container.args ?? [];
  const at = args.indexOf('--config');
  if (at < 0) throw new Error('the container is not started with --config');
  const file = args[at + 1]!;
  const mount = (container.volumeMounts ?? []).find((candidate) => path.posix.dirname(file) === candidate.mountPath);
  const volume = manifests.deployment.spec!.template.spec!.volumes?.find((candidate) => candidate.name === mount?.name);
  const item = volume?.configMap?.items?.find((candidate) => candidate.path === path.posix.basename(file));
  const configMap = manifests.configMaps.find((map) => map.metadata?.name === volume?.configMap?.name);
  const text = item && configMap?.data?.[item.key];
  if (text === undefined) throw new Error(`${file} is not a key of a ConfigMap of deploy/kubernetes mounted there`);
  return { path: file, configMap: configMap!.metadata!.name!, key: item!.key, text };
}

/** The configuration the pod's registry runs with: its file and environment, through the registry's own loader. */
export async function podConfig(manifests: Manifests): Promise<RegistryConfig> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-kubernetes-'));
  try {
    const file = path.join(dir, 'tessera.json');
    await writeFile(file, configFile(manifests).text);
    return loadConfig({ file, env: podEnvironment(manifests) });
  } catch (error) {
    // The loader names each key or variable at fault in its details.
    if (error instanceof ConfigError) throw new Error(`deploy/kubernetes: ${error.details.problems.join('; ')}`);
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Bytes of a Kubernetes memory quantity (`512Mi`, `2Gi`, `1G`, or bytes). */
export function bytesOf(quantity: string | number): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|k|M|G)?$/.exec(String(quantity));
  if (!match) throw new Error(`${quantity} is not a memory quantity these tests read`);
  const unit = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, k: 1e3, M: 1e6, G: 1e9 }[match[2] ?? ''] ?? 1;
  return Number(match[1]) * unit;
}
