import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import t from 'tap';
import { parseS3Location } from '../../src/storage/s3-location';
import { cliEnv, eventually, startCli, workFolder } from '../cli/run-cli';
import { freePort } from '../helpers/free-port';
import { BUCKET, startS3Server } from '../helpers/s3-server';
import { request } from '../helpers/start-registry';
import { configFile, podConfig, podEnvironment, readManifests, registryContainer } from './kubernetes-manifests';

t.test('the registry started as the pod starts it (its command, configuration file, environment, S3 storage) answers its probes, and turns unready on SIGTERM while still live', async (t) => {
  const manifests = readManifests();
  const container = registryContainer(manifests);
  const server = await startS3Server(t);
  const { bucket } = parseS3Location((await podConfig(manifests)).storagePath)!;
  if (bucket !== BUCKET) await server.client.send(new CreateBucketCommand({ Bucket: bucket }));

  const dir = await workFolder(t);
  const mounted = configFile(manifests);
  const file = path.join(dir, path.posix.basename(mounted.path));
  await writeFile(file, mounted.text);
  // The pod's arguments after the binary, with the mounted file here and a free loopback port.
  const args = container.args!.slice(container.args!.indexOf('bin/tessera.js') + 1).map((arg) => (arg === mounted.path ? file : arg));
  const port = await freePort();
  // The pod listens on every interface and reaches the store in the cluster; here, loopback only.
  // An S3 server started a moment ago beside other test processes once answered the start's first
  // calls past the default store deadline (STORAGE_UNAVAILABLE, and the registry exited): 20 s here.
  const env = cliEnv({ ...podEnvironment(manifests), AWS_ENDPOINT_URL: server.endpoint, TESSERA_HOST: '127.0.0.1', TESSERA_LIMITS_STORAGE_TIMEOUT_MS: '20000' });
  const registry = startCli(t, [...args, '--port', String(port)], { env });
  await registry.waitFor(/Tessera registry on http/, 30_000);
  const at = (target: string) => `http://127.0.0.1:${port}${target}`;

  const { startupProbe, livenessProbe, readinessProbe } = container;
  t.same((await request(at(startupProbe!.httpGet!.path!))).body, { status: 'live' }, 'the startup probe');
  t.same((await request(at(livenessProbe!.httpGet!.path!))).body, { status: 'live' }, 'the liveness probe');
  const ready = await request(at(readinessProbe!.httpGet!.path!));
  t.same([ready.status, ready.body], [200, { status: 'ready' }], 'the readiness probe');
  const metrics = await request(at(manifests.deployment.spec!.template.metadata!.annotations!['prometheus.io/path']!));
  t.equal(metrics.status, 200);
  t.match(metrics.text, /^# TYPE tessera_http_requests_total counter$/m, 'the scraped path holds the registry\'s metrics');

  const exited = new Promise<number | null>((resolve) => registry.child.once('exit', (code) => resolve(code)));
  process.kill(registry.child.pid!, 'SIGTERM');
  // SIGTERM comes after the preStop sleep; the registry then serves drainDelayMs more, unready.
  let draining = await request(at(readinessProbe!.httpGet!.path!));
  await eventually(async () => (draining = await request(at(readinessProbe!.httpGet!.path!))).status === 503);
  t.equal(draining.body.code, 'NOT_READY', 'the readiness probe fails while the pod drains');
  t.same((await request(at(livenessProbe!.httpGet!.path!))).body, { status: 'live' }, 'the liveness probe still passes: the kubelet lets it drain');
  t.equal(await exited, 0, 'the registry exits 0 once drained');
});
