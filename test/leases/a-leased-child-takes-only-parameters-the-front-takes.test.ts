import t from 'tap';
import { fixture, ofTenant, request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { hostsUp } from '../sandbox/wait-for';
import { BYSTANDER, BYSTANDER_HTML, bystander, nestedVia, prober, PROBER, proberChild } from './lease-helpers';

// A number parameter written "1e999" is numeric to the query-string coercion, and Infinity once
// coerced: the front's validator (ajv, strict numbers) refuses it, as it refuses any number that is
// not finite. A call the front would refuse must never run beside its parent: the parent must read
// the front's refusal whichever way its call went, and the child must never see a `times` of null
// (Infinity written as JSON).
t.test('a number the front refuses as not finite is refused beside the parent too', async (t) => {
  const { registry, url } = await startRegistry(t, [prober('mallory'), proberChild('mallory'), ofTenant('carol', fixture('lease-spinner')), BYSTANDER('ada')], TWO_HOSTS);
  await hostsUp(registry, 2);
  const refused = '<section>Error(Parameter "times" must be a number.)</section>';

  // The front itself: a GET with the same parameter is NOT_VALID_REQUEST.
  const direct = await request(`${url}prober-child?times=1e999`);
  t.same([direct.status, direct.body.code], [400, 'NOT_VALID_REQUEST'], 'the front refuses times=1e999');

  // Learnt with a valid number, through the front.
  const learnt = await request(`${url}${PROBER}?case=number&arg=1`);
  t.equal(learnt.status, 200, 'learnt through the front');
  t.match(learnt.body.html, /"params":\{"who":"probe","times":1,"loud":false\}/, 'the child ran with times=1');

  // The same call, a number that is not finite: through the front it would be refused.
  const host = await nestedVia(url, 'host');
  for (let round = 1; round <= 2; round++) {
    const probed = await request(`${url}${PROBER}?case=number&arg=1e999`);
    t.equal(probed.status, 200, `round ${round}`);
    t.equal(probed.body.html, refused, `round ${round}: the parent reads the front's refusal`);
    t.notMatch(probed.body.html, /"times":null/, `round ${round}: the child never ran with times=null`);
  }
  t.equal(await nestedVia(url, 'host'), host, 'no call the front refuses ran beside its parent');

  const other = await bystander(url);
  t.equal(other.status, 200, "another tenant's component answers");
  t.match(other.html, BYSTANDER_HTML);
});
