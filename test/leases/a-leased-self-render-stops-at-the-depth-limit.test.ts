import t from 'tap';
import { fixture, ofTenant, request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { hostsUp } from '../sandbox/wait-for';
import { BYSTANDER, BYSTANDER_HTML, bystander, nestedVia } from './lease-helpers';

const SELF = 'rendering-self-nesting';

// A component that renders itself learns itself as its own child: every level is leased the next,
// and a level run beside its parent asks for the next through the front, one level deeper. The
// depth limit must hold whichever way each level went: caught, the deepest level shows why it
// stopped; uncaught, the request fails 508 NESTING_TOO_DEEP, at every round.
t.test('a component that renders itself under leases stops at the depth limit, as through the front', async (t) => {
  const { registry, url } = await startRegistry(t, [ofTenant('mallory', fixture(SELF)), BYSTANDER('ada')], TWO_HOSTS);
  await hostsUp(registry, 2);
  for (let round = 1; round <= 3; round++) {
    const caught = await request(`${url}${SELF}?catch=true`);
    t.same(
      [caught.status, caught.body.html],
      [200, '<b>0</b><b>1</b><b>2</b><b>3</b><b>4</b><b>5</b>stopped: Nested rendering of "rendering-self-nesting" is deeper than the limit of 5 levels.'],
      `round ${round}: caught at the limit`,
    );
    const uncaught = await request(`${url}${SELF}`);
    t.same([uncaught.status, uncaught.body.code], [508, 'NESTING_TOO_DEEP'], `round ${round}: uncaught, 508`);
  }
  t.ok((await nestedVia(url, 'host')) > 0, 'levels ran beside their parents');
  const other = await bystander(url);
  t.equal(other.status, 200, "another tenant's component answers");
  t.match(other.html, BYSTANDER_HTML);
});
