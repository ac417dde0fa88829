import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { parseAllDocuments } from 'yaml';
import { CONFIG_VARIABLES } from '../../src/config/load-config';
import { createS3Client } from '../../src/storage/s3-storage';
import { REPO_ROOT } from '../helpers/start-registry';
import {
  bytesOf,
  configFile,
  KUBERNETES_FOLDER,
  MODELS,
  podConfig,
  podEnvironment,
  readKustomization,
  readManifestFiles,
  readManifests,
  registryContainer,
} from './kubernetes-manifests';

const dockerfile = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');

t.test('every object of deploy/kubernetes is valid against Kubernetes\' own schema, one object per file', async (t) => {
  for (const { file, documents } of readManifestFiles()) {
    t.equal(documents.length, 1, `${file} holds one object`);
    for (const object of documents) {
      const key = `${object.apiVersion} ${object.kind}` as keyof typeof MODELS;
      const Model = MODELS[key];
      if (!Model) {
        t.fail(`${file}: ${key} has no model here; add its class from kubernetes-models`);
        continue;
      }
      t.doesNotThrow(() => new Model(object as never).validate(), `${file}: ${key} ${object.metadata?.name} is valid`);
    }
  }
  // The check is real: a wrong type is refused.
  const { deployment } = readManifests();
  const broken = structuredClone(deployment.toJSON());
  broken.spec!.template.spec!.containers[0]!.ports![0]!.containerPort = 'http' as never;
  t.throws(() => new MODELS['apps/v1 Deployment'](broken).validate(), /containerPort must be integer/);
});

t.test('kustomization.yaml lists every file of the folder, and its image is the one the Dockerfile builds', async (t) => {
  const kustomization = readKustomization();
  const files = readdirSync(KUBERNETES_FOLDER).filter((file) => file !== 'kustomization.yaml').sort();
  t.same([...(kustomization.resources ?? [])].sort(), files);
  const image = registryContainer(readManifests()).image!;
  t.match(dockerfile, /^# The Tessera registry\. Build: docker build -t tessera-registry \./m, 'the Dockerfile builds tessera-registry');
  t.equal(image.split(':')[0], 'tessera-registry', 'the container runs that image');
  t.same(kustomization.images?.map((entry) => entry.name), ['tessera-registry'], 'the image kustomize rewrites is the container\'s');

  const kubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
  if (!kubectl) {
    t.comment('kubectl is not installed: the folder was checked as YAML only');
    return;
  }
  const built = spawnSync('kubectl', ['kustomize', KUBERNETES_FOLDER], { encoding: 'utf8' });
  t.equal(built.status, 0, `kubectl kustomize builds the folder ${built.stderr}`);
  const names = (documents: Array<{ kind?: string; metadata?: { name?: string } }>) => documents.map((object) => `${object.kind}/${object.metadata?.name}`).sort();
  const output = parseAllDocuments(built.stdout).map((document) => document.toJS() as { kind?: string; metadata?: { name?: string } });
  t.same(names(output), names(readManifestFiles().flatMap(({ documents }) => documents)), 'it holds every object of the folder');
});

t.test('the pod runs the Dockerfile\'s command with the ConfigMap\'s configuration file, whose every key the registry accepts', async (t) => {
  const manifests = readManifests();
  const container = registryContainer(manifests);
  const command = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
  const file = configFile(manifests);
  t.same(container.args, [...command, '--config', file.path], 'the Dockerfile\'s CMD, with --config');
  // The loader refuses unknown keys, values of the wrong type, and unknown nested keys, naming each.
  const config = await podConfig(manifests);
  t.match(config.storagePath, /^s3:\/\/[^/]+\/.+/, 'the replicas share an S3 bucket');

  // Every other key of the ConfigMaps and Secrets reaches the container as the variable of its name.
  const env = podEnvironment(manifests);
  for (const map of manifests.configMaps) {
    for (const key of Object.keys(map.data ?? {})) {
      if (map.metadata?.name === file.configMap && key === file.key) continue;
      t.ok(key in env, `ConfigMap ${map.metadata?.name}: ${key} is a variable of the container`);
    }
  }
  for (const secret of manifests.secrets) {
    for (const key of [...Object.keys(secret.stringData ?? {}), ...Object.keys(secret.data ?? {})]) t.ok(key in env, `Secret ${secret.metadata?.name}: ${key} is a variable of the container`);
  }

  // Each variable is one the registry reads: a TESSERA_* setting, or the S3 client's.
  const client = createS3Client(config.limits.storageTimeoutMs, env);
  const endpoint = await client.config.endpoint?.();
  const credentials = await client.config.credentials();
  const readByTheS3Client: Record<string, string | undefined> = {
    AWS_ENDPOINT_URL: endpoint && `${endpoint.protocol}//${endpoint.hostname}${endpoint.port ? `:${endpoint.port}` : ''}${endpoint.path === '/' ? '' : endpoint.path}`,
    AWS_REGION: await client.config.region(),
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  };
  client.destroy();
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith('TESSERA_')) t.ok(CONFIG_VARIABLES.includes(name), `${name} is a variable the registry reads`);
    else t.equal(readByTheS3Client[name], value, `${name} is read by the registry's S3 client`);
  }
  t.same(config.publishTokens, JSON.parse(env['TESSERA_PUBLISH_TOKENS'] ?? 'null'), 'the publish tokens come from their Secret');
});

t.test('ports and probes: the Service and every probe reach the port the registry listens on; liveness /livez, readiness /readyz', async (t) => {
  const manifests = readManifests();
  const container = registryContainer(manifests);
  const config = await podConfig(manifests);
  const [port] = container.ports ?? [];
  t.equal(port?.containerPort, config.port, 'the container port is the registry\'s');
  t.match(dockerfile, new RegExp(`^EXPOSE ${config.port}$`, 'm'), 'the image exposes it');
  const reaches = (target: string | number | undefined) => target === port?.containerPort || (typeof target === 'string' && target === port?.name);
  t.ok(reaches(manifests.service.spec?.ports?.[0]?.targetPort), 'the Service\'s target port');
  t.same(manifests.service.spec?.selector, manifests.deployment.spec?.template.metadata?.labels, 'the Service selects the pods');
  const probes = { startupProbe: '/livez', livenessProbe: '/livez', readinessProbe: '/readyz' } as const;
  for (const [probe, route] of Object.entries(probes) as Array<[keyof typeof probes, string]>) {
    t.equal(container[probe]?.httpGet?.path, route, `${probe} asks ${route}`);
    t.ok(reaches(container[probe]?.httpGet?.port), `${probe} asks the registry's port`);
  }
  const annotations = manifests.deployment.spec?.template.metadata?.annotations ?? {};
  t.equal(annotations['prometheus.io/port'], String(config.port), 'metrics are scraped on the registry\'s port');
  t.equal(manifests.deployment.spec?.template.spec?.enableServiceLinks, false, 'no Service adds TESSERA_* variables the registry would read');
});

t.test('stopping a pod: the preStop sleep is drainDelayMs, and the grace period holds it and drainTimeoutMs', async (t) => {
  const manifests = readManifests();
  const { limits } = await podConfig(manifests);
  const pod = manifests.deployment.spec!.template.spec!;
  const sleep = registryContainer(manifests).lifecycle?.preStop?.sleep?.seconds;
  t.equal(sleep !== undefined && sleep * 1000, limits.drainDelayMs, 'preStop sleeps drainDelayMs');
  // The kubelet counts the preStop hook in the grace period; SIGKILL follows it.
  t.ok(pod.terminationGracePeriodSeconds! >= (sleep ?? 0) + limits.drainTimeoutMs / 1000, `terminationGracePeriodSeconds ${pod.terminationGracePeriodSeconds} ≥ ${sleep} + ${limits.drainTimeoutMs / 1000}`);
  t.ok(pod.terminationGracePeriodSeconds! >= limits.drainTimeoutMs / 1000, 'it holds drainTimeoutMs');
  t.ok(limits.drainTimeoutMs >= limits.drainDelayMs + limits.executionTimeoutMs, 'draining leaves a request in flight after the delay its whole execution time');
});

t.test('resources, autoscaling and disruptions agree with the registry\'s own limits', async (t) => {
  const manifests = readManifests();
  const { limits } = await podConfig(manifests);
  const { requests, limits: ceilings } = registryContainer(manifests).resources ?? {};
  t.ok(requests?.cpu !== undefined, 'a CPU request, which the autoscaler\'s utilization is a share of');
  t.ok(bytesOf(requests!.memory!) <= bytesOf(ceilings!.memory!), 'the memory request is within the limit');
  // The registry replaces a sandbox host past hostMemoryMb; the kernel must not kill the pod first.
  // 256 MiB: the front (196 MB measured under load) and a replacement host starting (51 MB).
  const mebibytes = bytesOf(ceilings!.memory!) / 2 ** 20;
  t.ok(mebibytes >= limits.sandboxHosts * limits.hostMemoryMb + 256, `memory limit ${mebibytes} MiB ≥ ${limits.sandboxHosts} hosts × ${limits.hostMemoryMb} MiB + 256 MiB`);
  t.ok(limits.warmIsolateMbPerHost < limits.hostMemoryMb, 'warm isolates fit in a host');

  const { autoscaler, disruptionBudget, deployment } = manifests;
  const labels = deployment.spec?.template.metadata?.labels;
  t.same(autoscaler.spec?.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata?.name }, 'the autoscaler scales the Deployment');
  t.equal(deployment.spec?.replicas, undefined, 'the autoscaler owns the replica count: applying again does not reset it');
  t.ok(autoscaler.spec!.minReplicas! >= 2, 'at least two replicas');
  t.same(disruptionBudget.spec?.selector?.matchLabels, labels, 'the disruption budget selects the pods');
  t.same(deployment.spec?.selector.matchLabels, labels, 'the Deployment selects its pods');
  t.ok(disruptionBudget.spec?.maxUnavailable === 1 || disruptionBudget.spec?.minAvailable !== undefined, 'disruptions take one replica at a time');
});
