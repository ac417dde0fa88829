import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';
import { hostsUp, until } from './wait-for';

const LIMIT_MS = 6000;

t.test('GET /metrics parses, and its counters move as hostile components are stopped', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-sync-loop'), fixture('hostile-memory-array'), fixture('hostile-stack-overflow'), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    // Room for the memory bomb to reach its limit first, on a busy machine too: beside a second suite
    // it needed more than 2.5 s (504).
    config.limits.executionTimeoutMs = LIMIT_MS;
    config.limits.memoryMb = 16;
  });
  const { url, registry } = started;
  await hostsUp(registry, 2);
  const scrape = async () => {
    const response = await request(`${url}metrics`);
    t.equal(response.status, 200);
    t.match(response.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
    return parseMetrics(response.text);
  };

  const before = await scrape();
  t.equal(valueOf(before, 'tessera_renders_total', { component: 'hello-world', version: '1.0.0', tenant: 'default', outcome: 'ok' }), 0, 'nothing rendered yet');
  t.equal(valueOf(before, 'tessera_sandbox_hosts'), 2, 'both hosts answer');
  t.equal(valueOf(before, 'tessera_sandbox_queue_depth'), 0);

  const statuses = await Promise.all(
    [
      'hello-world?name=Ada',
      'hello-world/1.0.0?name=Grace',
      'hostile-sync-loop',
      'hostile-memory-array?grow=true',
      'hostile-stack-overflow',
      'no-such-component-0b4f',
      'hello-world/9.9.9',
      'no/route/has/this/shape',
    ].map(async (path) => (await request(`${url}${path}`)).status),
  );
  t.same(statuses, [200, 200, 504, 500, 500, 404, 404, 404]);

  // Hosts read their isolates' heaps, and count them, every 2 s: both from one reading.
  await until(() => registry.pool.stats().heapBytes > 100_000 && registry.pool.stats().warmIsolates >= 2);
  const after = await scrape();
  const renders = (component: string, outcome: string) => valueOf(after, 'tessera_renders_total', { component, version: '1.0.0', tenant: 'default', outcome });
  t.equal(renders('hello-world', 'ok'), 2);
  t.equal(renders('hostile-sync-loop', 'EXECUTION_TIMEOUT'), 1);
  t.equal(renders('hostile-memory-array', 'MEMORY_LIMIT_EXCEEDED'), 1);
  t.equal(renders('hostile-stack-overflow', 'GENERIC_ERROR'), 1);
  t.equal(valueOf(after, 'tessera_execution_timeouts_total', { component: 'hostile-sync-loop', tenant: 'default' }), 1);
  t.equal(valueOf(after, 'tessera_memory_limit_kills_total', { component: 'hostile-memory-array', tenant: 'default' }), 1);
  t.equal(valueOf(after, 'tessera_execution_duration_seconds_count', { component: 'hello-world' }), 2);
  t.ok(valueOf(after, 'tessera_execution_duration_seconds_sum', { component: 'hostile-sync-loop' }) >= LIMIT_MS / 1000, 'the timed-out execution took its whole limit');
  t.equal(valueOf(after, 'tessera_http_requests_total', { method: 'GET', route: '/:name', status: '200' }), 1);
  t.equal(valueOf(after, 'tessera_http_requests_total', { method: 'GET', route: '/:name/:version', status: '200' }), 1);
  t.equal(valueOf(after, 'tessera_http_requests_total', { method: 'GET', route: '/:name', status: '404' }), 1);
  t.equal(valueOf(after, 'tessera_http_requests_total', { method: 'GET', route: '/:name/:version', status: '404' }), 1);
  t.equal(valueOf(after, 'tessera_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }), 1, 'a URL no route matches');
  t.equal(valueOf(after, 'tessera_http_requests_total', { method: 'GET', route: '/metrics', status: '200' }), 1, 'the first scrape');
  t.equal(valueOf(after, 'tessera_http_request_duration_seconds_count', { method: 'GET', route: '/:name' }), 5);
  t.equal(valueOf(after, 'tessera_sandbox_host_restarts_total'), 0);
  t.ok(valueOf(after, 'tessera_sandbox_warm_isolates') >= 2, 'the surviving isolates are warm');
  t.ok(valueOf(after, 'tessera_sandbox_isolate_heap_bytes') > 100_000, 'and their heap is reported');
  t.ok(valueOf(after, 'process_resident_memory_bytes') > 0, 'the process metrics are there too');

  // Label values come from route patterns and published components only, never from the request.
  const values = after.flatMap((sample) => Object.values(sample.labels));
  t.notOk(values.some((value) => value.includes('no-such-component') || value.includes('9.9.9') || value.includes('Ada') || value.includes('shape')), 'no label carries request input');
  const components = new Set(after.filter((sample) => sample.labels.component !== undefined).map((sample) => sample.labels.component));
  t.same([...components].sort(), ['hello-world', 'hostile-memory-array', 'hostile-stack-overflow', 'hostile-sync-loop']);
});
