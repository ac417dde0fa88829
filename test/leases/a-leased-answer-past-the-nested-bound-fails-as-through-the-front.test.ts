import t from 'tap';
import { request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { hostsUp } from '../sandbox/wait-for';
import { BYSTANDER, BYSTANDER_HTML, bystander, nestedVia, prober, PROBER, proberChild, withoutIds } from './lease-helpers';

/** More than one answer of the prober's child, less than two. */
const BOUND = 350;

// Two calls of one child at once, whose answers together pass the request's nested-answer bound:
// through the front, the second answer to come back is refused and the parent, which catches it,
// answers 200 with the first and the refusal. Beside the parent, one call runs under the lease (its
// answer checked against what was left when the lease was granted), the other through the front
// (checked against what the front has counted, which does not hold the leased answer yet): each
// fits alone, both reach the parent, and the whole request fails when the leased one is counted
// with the parent's result. The parent must read the same as through the front.
t.test("two answers past the request's nested bound: the parent reads one refusal, whichever way its calls went", async (t) => {
  const { registry, url } = await startRegistry(t, [prober('mallory'), proberChild('mallory'), BYSTANDER('ada')], (config) => {
    TWO_HOSTS(config);
    config.limits.maxNestedBytesPerRequest = BOUND;
  });
  await hostsUp(registry, 2);
  const refusal = `Error(The nested answers of one request may bring at most ${BOUND} characters through the registry.)`;
  const shape = (html: string) => withoutIds(html).replace(/^<section>|<\/section>$/g, '').split(' | ').map((part) => (part.startsWith('Error(') ? part : 'child'));

  const front = await request(`${url}${PROBER}?case=twice`);
  t.equal(front.status, 200, 'through the front');
  t.same(shape(front.body.html).sort(), ['child', refusal].sort(), 'through the front: one child, one refusal');

  const host = await nestedVia(url, 'host');
  for (let round = 1; round <= 2; round++) {
    const beside = await request(`${url}${PROBER}?case=twice`);
    t.same([beside.status, beside.body.code], [200, undefined], `round ${round}: answered as through the front`);
    t.same(shape(String(beside.body.html)).sort(), ['child', refusal].sort(), `round ${round}: one child, one refusal`);
  }
  t.ok((await nestedVia(url, 'host')) > host, "calls ran beside their parent");

  const other = await bystander(url);
  t.equal(other.status, 200, "another tenant's component answers");
  t.match(other.html, BYSTANDER_HTML);
});
