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
  });
  const { status, body } = await request(`${started.url}${NAME}?children=20&kb=1000`);
  t.equal(status, 200);
  // Each answer is 1,024,000 characters of text and about 60 of its envelope: five fit within 5 MiB.
  t.equal(body.html, `<p>5 rendered, 15 refused: The nested answers of one request may bring at most ${BOUND} characters through the registry.</p>`);
  await bystanderRenders(t, started, 'After', 'another tenant after the byte puller');
});
