import t from 'tap';
import { fixture, request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { hostsCpuShare, hostsUp } from './wait-for';

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('loops waiting on nested renders that settle after the answer never run', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-orphan-loop'), BYSTANDER], TWO_HOSTS);
  await hostsUp(started.registry, 2);
  for (let round = 0; round < 3; round++) {
    const { status, body } = await request(`${started.url}hostile-orphan-loop`);
    t.equal(status, 200, `round ${round}: answered`);
    t.equal(body.html, '<p>answered</p>');
  }
  await settle(200);
  const share = await hostsCpuShare(started.registry, 1000);
  t.ok(share < 0.05, `the hosts are idle after the answers (${(share * 100).toFixed(1)} % of a core)`);
  await bystanderRenders(t, started, 'After', 'another tenant after the orphaned loops');
});

t.test('children still running when their root answers are cancelled', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-orphan-children'), fixture('hostile-sync-loop'), BYSTANDER], TWO_HOSTS);
  await hostsUp(started.registry, 2);
  const sent = performance.now();
  const { status, body } = await request(`${started.url}hostile-orphan-children`);
  t.equal(status, 200);
  t.equal(body.html, '<p>answered</p>');
  t.ok(performance.now() - sent < 2000, 'the root answered without waiting for its children');
  await settle(300);
  // Without cancellation the two spinning children would burn two cores up to the 5 s limit.
  const share = await hostsCpuShare(started.registry, 1000);
  t.ok(share < 0.05, `the hosts are idle once the root answered (${(share * 100).toFixed(1)} % of a core)`);
  await bystanderRenders(t, started, 'After', 'another tenant after the cancelled children');
  const metrics = (await request(`${started.url}metrics`)).text;
  t.match(metrics, /^tessera_renders_total\{component="hostile-sync-loop",version="1\.0\.0",outcome="EXECUTION_CANCELLED"\} 2$/m, 'both children were cancelled');
});
