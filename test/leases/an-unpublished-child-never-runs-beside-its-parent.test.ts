import t from 'tap';
import { request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { hostsUp } from '../sandbox/wait-for';
import { BYSTANDER, BYSTANDER_HTML, bystander, prober, PROBER, proberChild } from './lease-helpers';

// A lease is granted when its parent's execution starts, and held until it ends. A parent that
// spins 1.5 s in its own code and asks for its child at an exact version afterwards asks for it
// after that version was unpublished: through the front, the call resolves no more (GONE) and
// nothing of the version runs once the unpublish was answered (decisions §14). Beside the parent,
// the plan leased before the unpublish must not run it either.
const wait = 'spin';
t.test('a version unpublished while its parent runs is not run beside the parent afterwards', async (t) => {
  const { registry, url } = await startRegistry(
    t,
    [prober('mallory'), proberChild('mallory'), proberChild('mallory', '1.0.1'), BYSTANDER('ada')],
    TWO_HOSTS,
  );
  await hostsUp(registry, 2);
  for (let round = 1; round <= 2; round++) {
    const learnt = await request(`${url}${PROBER}?case=${wait}&version=1.0.1&ms=0`);
    t.equal(learnt.status, 200, `round ${round}`);
    t.match(learnt.body.html, /^<section>waited \| <oc-component href="[^"]+\/prober-child\/1\.0\.1\?who=late&amp;loud=false" [^>]* data-version="1\.0\.1">/, `round ${round}: the child at 1.0.1`);
  }

  const late = request(`${url}${PROBER}?case=${wait}&version=1.0.1&ms=1500`);
  await new Promise((resolve) => setTimeout(resolve, 400));
  await registry.catalog.unpublish('prober-child', '1.0.1', { date: new Date().toISOString(), tenant: null });
  const gone = await request(`${url}prober-child/1.0.1`);
  t.same([gone.status, gone.body.code], [410, 'GONE'], 'the version is unpublished: the front answers GONE');

  const answer = await late;
  t.equal(answer.status, 200);
  t.equal(answer.body.html, '<section>waited | Error(prober-child@1.0.1 was unpublished; other versions: 1.0.0.)</section>', 'the parent, asking after the unpublish, reads GONE');
  t.notMatch(answer.body.html, /data-version="1\.0\.1"/, 'nothing of the unpublished version ran after the unpublish');

  const other = await bystander(url);
  t.equal(other.status, 200, "another tenant's component answers");
  t.match(other.html, BYSTANDER_HTML);
});
