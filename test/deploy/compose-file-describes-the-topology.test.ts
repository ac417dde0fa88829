import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { REPO_ROOT, request, startRegistry } from '../helpers/start-registry';
import { NODE_FLAGS } from '../../src/node-flags';

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: string;
  deploy?: { replicas?: number };
  volumes?: string[];
  environment?: Record<string, string>;
  healthcheck?: unknown;
}

t.test('docker-compose.yml: three replicas, an S3 store, HAProxy checking /readyz, Prometheus scraping each replica, Grafana with the dashboard', async (t) => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
  t.same(Object.keys(compose.services).sort(), ['create-bucket', 'grafana', 'load-balancer', 'object-store', 'prometheus', 'registry']);
  const { registry, 'object-store': store, 'load-balancer': balancer, prometheus, grafana } = compose.services as Record<string, ComposeService>;
  t.equal(registry!.deploy?.replicas, 3);
  t.equal(registry!.build, '.');
  t.equal(registry!.environment?.['TESSERA_STORAGE'], 's3://components/registry');
  t.equal(registry!.environment?.['AWS_ENDPOINT_URL'], 'http://object-store:8333');
  t.match(store!.image, /^chrislusf\/seaweedfs:\d/);
  t.match(balancer!.image, /^haproxy:/);
  t.match(prometheus!.image, /^prom\/prometheus:/);
  t.match(grafana!.image, /^grafana\/grafana:/);
  for (const [name, service] of Object.entries(compose.services)) {
    for (const volume of service.volumes ?? []) {
      const source = volume.split(':')[0]!;
      if (source.startsWith('./')) t.ok(existsSync(path.join(REPO_ROOT, source)), `${name} mounts ${source}, which exists`);
    }
  }

  const haproxy = read('deploy/haproxy/haproxy.cfg');
  t.match(haproxy, /option httpchk GET \/readyz/);
  t.match(haproxy, /server-template replica 3 registry:3030 check/);
  const scrape = parse(read('deploy/prometheus/prometheus.yml')) as { scrape_configs: Array<{ metrics_path: string; dns_sd_configs: Array<{ names: string[]; port: number }> }> };
  t.same(scrape.scrape_configs[0]!.dns_sd_configs[0], { names: ['registry'], type: 'A', port: 3030, refresh_interval: '10s' });
  t.equal(scrape.scrape_configs[0]!.metrics_path, '/metrics');

  const dockerfile = read('Dockerfile');
  t.match(dockerfile, /^USER node$/m, 'the image runs as a non-root user');
  t.match(dockerfile, /^HEALTHCHECK .*\n.*\/readyz/m);
  // npm ci runs scripts/build-when-stale.js (`prepare`): the layer that installs must hold it.
  t.match(dockerfile, /^COPY scripts \.\/scripts\nRUN npm ci$/m, 'the install layer holds the script npm ci runs');
  // Started with fewer of the registry's flags, bin/tessera.js would run it in a second Node process.
  const command = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
  t.same(command, ['node', ...NODE_FLAGS, 'bin/tessera.js', 'start'], "the image starts the registry with every one of its Node flags");

  const compose2 = ['docker compose', 'docker-compose'].find((command) => spawnSync('sh', ['-c', `${command} version`], { stdio: 'ignore' }).status === 0);
  if (compose2) {
    const checked = spawnSync('sh', ['-c', `${compose2} -f docker-compose.yml config -q`], { cwd: REPO_ROOT, encoding: 'utf8' });
    t.equal(checked.status, 0, `${compose2} config accepts the file ${checked.stderr}`);
  } else {
    t.comment('neither "docker compose" nor "docker-compose" is installed: the file was checked as YAML only');
  }
});

t.test("the Grafana dashboard shows requests, latency, executions by outcome, queue depth and memory, from metrics the registry exports", async (t) => {
  const dashboard = JSON.parse(read('deploy/grafana/dashboards/tessera.json')) as { panels: Array<{ title: string; targets: Array<{ expr: string }> }> };
  t.same(
    dashboard.panels.map((panel) => panel.title),
    [
      'Requests per second, by status',
      'Latency (all routes)',
      'Executions per second, by outcome',
      'Sandbox queue depth, per replica',
      'Memory, per replica',
      'Replicas up and requests per replica',
    ],
  );
  const { url } = await startRegistry(t, []);
  await request(`${url}no-such-component`);
  const exported = new Set([...(await request(`${url}metrics`)).text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(([, name, type]) => (type === 'histogram' ? [`${name}_bucket`] : [name!])));
  for (const panel of dashboard.panels) {
    for (const { expr } of panel.targets) {
      for (const [metric] of expr.matchAll(/\b(tessera|process)_[a-z_]+/g)) t.ok(exported.has(metric), `${panel.title}: ${metric} is exported`);
    }
  }
});
