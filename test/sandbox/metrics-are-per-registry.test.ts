import t from 'tap';
import { request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { BYSTANDER } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';

t.test('two registries in one process keep separate metrics', async (t) => {
  const first = await startRegistry(t, [BYSTANDER], TWO_HOSTS);
  const second = await startRegistry(t, [BYSTANDER], TWO_HOSTS);
  t.equal((await request(`${first.url}hello-world?name=Ada`)).status, 200);

  const ok = { component: 'hello-world', version: '1.0.0', tenant: 'default', outcome: 'ok' };
  t.equal(valueOf(parseMetrics((await request(`${first.url}metrics`)).text), 'tessera_renders_total', ok), 1, 'the registry that rendered counts it');
  t.equal(valueOf(parseMetrics((await request(`${second.url}metrics`)).text), 'tessera_renders_total', ok), 0, 'the other does not');
});
