import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';

const NAME = 'hostile-byte-puller';
const BOUND = 5 * 1024 * 1024;

// Twenty nested answers of 1 MB each: each within the result limit, together more than one request
// may pull through the front. Past the bound the next nested answers are refused.
t.test("the bytes of one request's nested answers are bounded: past maxNestedBytesPerRequest, REQUEST_BUDGET_EXCEEDED", async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture(NAME)), ofTenant('mallory', fixture('big-answer')), ofTenant('ada', BYSTANDER)], (config) => {
    config.limits.maxNestedBytesPerRequest = BOUND;
    // Twenty children of a megabyte each, in one request: more than the default 5 s on a machine
    // whose CPUs are busy with other work. The bound, not the time limit, is under test.
    config.limits.executionTimeoutMs = 30_000;
  });
  const { status, body } = await request(`${started.url}${NAME}?children=20&kb=1000`);
  t.equal(status, 200);
  // Each answer is 1,024,000 characters of text and about 60 of its envelope: five fit within 5 MiB.
  t.equal(body.html, `<p>5 rendered, 15 refused: The nested answers of one request may bring at most ${BOUND} characters through the registry.</p>`);
  await bystanderRenders(t, started, 'After', 'another tenant after the byte puller');
});

// One batch's items are requests of their own, but one HTTP answer holds them all: together they
// bring at most as much through the front.
t.test("a batch's answers together are bounded by the same limit: past it, the next items fail REQUEST_BUDGET_EXCEEDED", async (t) => {
  const started = await startRegistry(t, [ofTenant('mallory', fixture('big-answer')), ofTenant('ada', BYSTANDER)], (config) => {
    config.limits.maxNestedBytesPerRequest = BOUND;
    // Twenty answers of a megabyte on one host passed the default 5 s beside a second suite (every
    // item 504): as above, the bound is under test, not the time limit.
    config.limits.executionTimeoutMs = 30_000;
  });
  const { status, body } = await request(started.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ components: Array.from({ length: 20 }, () => ({ name: 'big-answer', parameters: { kb: 1000 } })) }),
  });
  t.equal(status, 200);
  t.same(
    (body as Array<{ status: number }>).map((item) => item.status).sort(),
    [...Array<number>(5).fill(200), ...Array<number>(15).fill(500)],
    'five answers fit within 5 MiB',
  );
  const refused = (body as Array<{ status: number; response: unknown }>).find((item) => item.status === 500)!.response;
  t.same(refused, {
    code: 'REQUEST_BUDGET_EXCEEDED',
    error: `The answers of one batch may bring at most ${BOUND} characters through the registry.`,
    name: 'big-answer',
    requestVersion: '',
  });
  await bystanderRenders(t, started, 'After', 'another tenant after the large batch');
});
