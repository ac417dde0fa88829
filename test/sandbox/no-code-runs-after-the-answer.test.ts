import t from 'tap';
import { fixture, request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';
import { hostsRunningWithoutABreak, hostsUp } from './wait-for';
import { parseMetrics } from './parse-metrics';
import { defaultConfig } from '../../src/config/config';

/** The execution time limit the children spin to (the default's). */
const LIMIT_MS = defaultConfig().limits.executionTimeoutMs;

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Each test waits for its own registry's hosts to settle: all at once.
t.jobs = 3;

t.test('loops waiting on nested renders that settle after the answer never run', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-orphan-loop'), BYSTANDER], TWO_HOSTS);
  await hostsUp(started.registry, 2);
  for (let round = 0; round < 3; round++) {
    const { status, body } = await request(`${started.url}hostile-orphan-loop`);
    t.equal(status, 200, `round ${round}: answered`);
    t.equal(body.html, '<p>answered</p>');
  }
  await settle(200);
  t.same(await hostsRunningWithoutABreak(started.registry, 1000), [], 'no thread of the hosts runs code after the answers');
  await bystanderRenders(t, started, 'After', 'another tenant after the orphaned loops');
});

t.test('children still running when their root answers are cancelled', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-orphan-children'), fixture('hostile-sync-loop'), BYSTANDER], TWO_HOSTS);
  await hostsUp(started.registry, 2);
  const sent = performance.now();
  const { status, body } = await request(`${started.url}hostile-orphan-children`);
  t.equal(status, 200);
  t.equal(body.html, '<p>answered</p>');
  // Children that held their root's answer would end at their time limit, counted from after the root started.
  const took = performance.now() - sent;
  t.ok(took < LIMIT_MS, `the root answered without waiting for its children (${Math.round(took)} ms, within their ${LIMIT_MS} ms limit)`);
  await settle(300);
  // Without cancellation the two spinning children would burn two cores up to the 5 s limit.
  t.same(await hostsRunningWithoutABreak(started.registry, 1000), [], 'no thread of the hosts runs code once the root answered');
  await bystanderRenders(t, started, 'After', 'another tenant after the cancelled children');
  const metrics = (await request(`${started.url}metrics`)).text;
  t.match(metrics, /^tessera_renders_total\{component="hostile-sync-loop",version="1\.0\.0",tenant="default",outcome="EXECUTION_CANCELLED"\} 2$/m, 'both children were cancelled');
});

t.test('nested renders asked for after the answer, in the same task, are refused: none of them runs', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-calls-after-answer'), BYSTANDER]);
  const { status, body } = await request(`${started.url}hostile-calls-after-answer`);
  t.equal(status, 200);
  t.equal(body.html, '<p>answered</p>');
  await settle(300);
  // The chain asks 60 times; the answer is given a few links in. What was asked before it may have
  // started (then been cancelled with its root); what was asked after never reaches the front.
  const renders = parseMetrics((await request(`${started.url}metrics`)).text)
    .filter((sample) => sample.name === 'tessera_renders_total' && sample.labels.component === 'hello-world')
    .reduce((sum, sample) => sum + sample.value, 0);
  t.ok(renders < 10, `${renders} of the 60 nested renders were started, all asked before the answer`);
  await bystanderRenders(t, started, 'After', 'another tenant after the late calls');
});
