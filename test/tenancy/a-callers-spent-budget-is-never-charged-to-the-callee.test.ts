import t from 'tap';
import type { ExecutionJob } from '../../src/sandbox/execution-job';
import { RequestBudget } from '../../src/sandbox/request-budget';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { parseMetrics, valueOf } from '../sandbox/parse-metrics';
import { hostsUp } from '../sandbox/wait-for';

const KILLER = 'hostile-budget-killer';
const LIMIT_MS = 1500;

// A tenant's component spends nearly all of its request's time, then renders another tenant's
// component with the ~300 ms left. Each child ends EXECUTION_TIMEOUT for its caller alone
// (the callee's isolate is kept, decisions §13): an operator reading the per-tenant metrics must not
// see the callee time out. The CPU the children burnt is the callee's code's, counted for the tenant
// whose code ran it, as for any visitor's request.
t.test("the timeouts of children another tenant's spent budget cut short are never counted against the callee's tenant", async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture(KILLER)), ofTenant('ada', fixture('slow-worker'))], (config) => {
    config.limits.executionTimeoutMs = LIMIT_MS;
  });
  const { registry, url } = started;
  await hostsUp(registry, 1);
  t.equal((await request(`${url}slow-worker?ms=0`)).body.html, '<p>run 1</p>', 'the callee is warm');
  const scrape = async () => parseMetrics((await request(`${url}metrics`)).text);
  const before = await scrape();

  const answer = await request(`${url}${KILLER}?spinMs=1200&childMs=1000`);
  if (answer.status === 504) t.same(answer.body, { code: 'EXECUTION_TIMEOUT', error: 'The component passed its execution time limit.', name: KILLER, requestVersion: '' });
  else {
    // The child started and was stopped with the time left, or (the parent's spin past what was left, on a busy machine) found none to start in.
    const failed = ['The component passed its execution time limit.', 'The request passed its execution time limit before this nested render could start.'].map((sentence) => `<p>the child failed: ${sentence}</p>`);
    t.equal(answer.status, 200);
    t.ok(failed.includes(answer.body.html!), `the child ended EXECUTION_TIMEOUT for its caller: ${answer.body.html}`);
  }
  const after = await scrape();

  const timeouts = (samples: typeof after, tenant: string, component: string) => valueOf(samples, 'tessera_execution_timeouts_total', { component, tenant });
  t.equal(timeouts(after, 'ada', 'slow-worker') - timeouts(before, 'ada', 'slow-worker'), 0, "no timeout is counted against the callee's tenant");
});

t.test("a nested render that finds its request's time spent before it starts is the request's timeout, never its component's", async (t) => {
  const started = await startRegistry(t, [ofTenant('ada', fixture('slow-worker'))]);
  const { registry } = started;
  // The request's one deadline, set by its first execution, passed before this one is sent.
  const budget = new RequestBudget({ timeoutMs: 1, maxExecutions: 10, maxSlots: 10, maxNestedChars: 1_000_000 });
  budget.charge();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const job: ExecutionJob = {
    key: 'slow-worker@1.0.0#none',
    component: 'slow-worker',
    tenant: 'ada',
    plugins: [],
    loadCode: () => Promise.reject(new Error('never loaded: it never starts')),
    input: '{}',
    depth: 1,
    budget,
  };
  await t.rejects(registry.pool.execute(job), { code: 'EXECUTION_TIMEOUT', message: 'The request passed its execution time limit before this nested render could start.' });
  t.equal(job.cutShort, true, "marked cut short: the metrics count it as its caller's, not the component's");
});
