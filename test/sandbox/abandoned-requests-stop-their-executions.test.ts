import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';
import { eventually } from '../cli/run-cli';
import { hostsRunningWithoutABreak, hostsUp } from './wait-for';

const NAME = 'hostile-sync-loop';

t.test('a request its client abandons stops running: its execution is cancelled, not left to spin to the limit', async (t) => {
  const started = await startRegistry(t, [fixture(NAME), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 1;
    config.limits.executionTimeoutMs = 20_000;
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  const cancelled = async () => valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_renders_total', { component: NAME, version: '1.0.0', tenant: 'default', outcome: 'EXECUTION_CANCELLED' });

  for (const [how, send] of [
    ['GET', (signal: AbortSignal) => fetch(`${url}${NAME}`, { signal })],
    ['batch', (signal: AbortSignal) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"components":[{"name":"${NAME}"},{"name":"${NAME}"}]}`, signal })],
  ] as const) {
    const before = await cancelled();
    await t.rejects(send(AbortSignal.timeout(300)), `${how}: the client gives up`);
    await t.resolves(eventually(async () => (await cancelled()) > before, 5000, 10), `${how}: its executions are counted EXECUTION_CANCELLED`);
    // The spinning isolate was discarded with its execution, well before the 20 s limit.
    await t.resolves(eventually(async () => (await hostsRunningWithoutABreak(registry, 1000)).length === 0, 5000, 10), `${how}: the host is idle again`);
    await bystanderRenders(t, started, `After ${how}`, `another tenant after the abandoned ${how}`);
  }
});
