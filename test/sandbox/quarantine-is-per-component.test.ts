import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { parseMetrics, valueOf } from './parse-metrics';
import { hostsUp, until } from './wait-for';

const NAME = 'hostile-unstoppable-builtin';

// Each version of the component loses its isolate (a built-in V8 cannot stop) and costs its host a
// recycle. Quarantine used to be per version: publishing new versions escaped it. It is per
// component, all its versions together, and counts against the component's tenant.
t.test('a component whose versions keep losing their isolate is quarantined as a whole', async (t) => {
  const versions = ['1.0.0', '1.0.1', '1.0.2'];
  const started = await startRegistry(t, [...versions.map((version) => ofTenant('mallory', fixture(NAME), version)), ofTenant('ada', BYSTANDER)], (config) => {
    config.limits.sandboxHosts = 2;
    config.limits.executionTimeoutMs = 20_000;
  });
  const { registry, url } = started;
  for (const version of versions) {
    await hostsUp(registry, 2);
    const answer = await request(`${url}${NAME}/${version}`);
    t.equal(answer.status, 500, `${version}: status`);
    t.same(answer.body, { code: 'MEMORY_LIMIT_EXCEEDED', error: 'The component passed its sandbox memory limit; its sandbox was discarded.', name: NAME, requestVersion: version });
    await bystanderRenders(t, started, `After ${version}`, `another tenant after ${version}`);
  }
  // An isolate counts as lost once its built-in has not stopped within 100 ms of its answer.
  const lost = async () => valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_sandbox_isolates_lost_total', { tenant: 'mallory' });
  await until(async () => (await lost()) === 3);
  for (const version of [...versions, '']) {
    const refused = await request(`${url}${NAME}/${version}`);
    t.equal(refused.status, 503, `${version || 'latest'}: refused at once`);
    t.match(refused.body, {
      code: 'SANDBOX_QUARANTINED',
      error: new RegExp(`^Component "${NAME}" lost its sandbox 3 times within a minute; all its versions are refused for (60|59) s\\.$`),
      name: NAME,
      requestVersion: version,
    });
  }
  await bystanderRenders(t, started, 'Quarantine', 'another tenant while the component is quarantined');
  const metrics = parseMetrics((await request(`${url}metrics`)).text);
  t.equal(valueOf(metrics, 'tessera_sandbox_quarantines_total', { tenant: 'mallory', scope: 'component' }), 1, 'the quarantine counts against its tenant');
  t.equal(valueOf(metrics, 'tessera_sandbox_isolates_lost_total', { tenant: 'mallory' }), 3);
  t.equal(valueOf(metrics, 'tessera_sandbox_isolates_lost_total', { tenant: 'ada' }), 0);
});
