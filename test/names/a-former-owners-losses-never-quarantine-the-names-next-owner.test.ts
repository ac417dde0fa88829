import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { put } from '../publish/publish-helpers';
import { BYSTANDER, bystanderRenders } from '../sandbox/bystander';
import { parseMetrics, valueOf } from '../sandbox/parse-metrics';
import { countAfter, hostsUp } from '../sandbox/wait-for';
import { admin } from '../tenants/admin-helpers';
import { COOKIE_KEEPER, LABS, SHOP, overlappingTenants, packedAs } from './names-helpers';

const NAME = 'shop-labs-widget';

/**
 * `labs` owns a name, publishes a version that loses its isolate, and the administrator moves the
 * name to `shop`, which publishes its own version; `labs`' stays live (decisions §15). Losses were
 * counted by name, against the tenant of the name's latest version: `labs` losing its isolate three
 * times quarantined the name, `shop`'s version with it, and counted the losses against `shop`,
 * toward a quarantine of all of `shop`'s components. A loss now counts against the tenant whose
 * versions the lost isolate ran, and quarantines that tenant's versions of the name only.
 */
t.test("a moved name's former owner losing its isolates never quarantines the new owner's version, nor counts against it", async (t) => {
  const started = await startRegistry(t, [BYSTANDER], (config) => {
    overlappingTenants(config);
    // A lost isolate recycles its host: the other takes the requests meanwhile.
    config.limits.sandboxHosts = 2;
    // The built-in is stopped by memory, never by time.
    config.limits.executionTimeoutMs = 20_000;
  });
  const { registry, url } = started;
  const shopRenders = async (version: string) => {
    const { status, body } = await request(`${url}${NAME}/${version}`);
    return [status, typeof body.html === 'string' && body.html.includes('<p>(none)</p>') ? 'rendered' : body];
  };
  // Whoever they are counted against: which one is asserted at the end.
  const lost = async () => {
    const samples = parseMetrics((await request(`${url}metrics`)).text);
    return valueOf(samples, 'tessera_sandbox_isolates_lost_total', { tenant: 'labs' }) + valueOf(samples, 'tessera_sandbox_isolates_lost_total', { tenant: 'shop' });
  };

  t.equal((await put(url, `${NAME}/1.0.0`, await packedAs(fixture('hostile-unstoppable-builtin'), NAME, '1.0.0'), { token: LABS })).status, 201);
  t.equal((await admin(url, 'PUT', `names/${NAME}`, { tenant: 'shop' })).status, 200);
  t.equal((await put(url, `${NAME}/2.0.0`, await packedAs(COOKIE_KEEPER, NAME, '2.0.0'), { token: SHOP })).status, 201);
  t.same(await shopRenders('2.0.0'), [200, 'rendered'], "shop's version renders before");

  // Each call loses its isolate, unless, on a busy machine, it ends before it was found lost (the
  // isolate is then discarded without a loss): attempts go on until three losses.
  let losses = 0;
  for (let attempt = 0; losses < 3; attempt++) {
    if (attempt >= 12) {
      t.fail('three isolates were lost within twelve attempts');
      return;
    }
    await hostsUp(registry, 2);
    const answer = await request(`${url}${NAME}/1.0.0`);
    t.same([answer.status, answer.body.code], [500, 'MEMORY_LIMIT_EXCEEDED'], `attempt ${attempt + 1}: labs' version passes its memory limit`);
    losses = await countAfter(lost, losses, 3000);
  }
  await hostsUp(registry, 2);

  const refused = await request(`${url}${NAME}/1.0.0`);
  t.equal(refused.status, 503, "labs' version is quarantined");
  t.match(refused.body, { code: 'SANDBOX_QUARANTINED', error: new RegExp(`^Component "${NAME}" lost its sandbox 3 times within a minute; all its versions are refused for (60|59) s\\.$`) });
  t.same(await shopRenders('2.0.0'), [200, 'rendered'], "shop's version of the name is not quarantined with it");
  t.same(await shopRenders(''), [200, 'rendered'], "the name's latest, shop's, renders");
  await bystanderRenders(t, started, 'After', 'the bystander after');

  const samples = parseMetrics((await request(`${url}metrics`)).text);
  t.equal(valueOf(samples, 'tessera_sandbox_isolates_lost_total', { tenant: 'labs' }), 3, "the losses are labs'");
  t.equal(valueOf(samples, 'tessera_sandbox_isolates_lost_total', { tenant: 'shop' }), 0, 'none is counted against shop');
  t.equal(valueOf(samples, 'tessera_sandbox_quarantines_total', { tenant: 'labs', scope: 'component' }), 1, "the quarantine is labs'");
  t.equal(valueOf(samples, 'tessera_sandbox_quarantines_total', { tenant: 'shop', scope: 'component' }), 0, 'shop has none');
});
