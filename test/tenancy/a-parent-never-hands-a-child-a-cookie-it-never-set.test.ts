import t from 'tap';
import { fixture, ofTenant, request, startRegistry } from '../helpers/start-registry';

/**
 * Beta keeps its session in a cookie it set: the registry sends it as `oc.tenant-beta.session` and
 * gives it back to beta as `session`. Mallory renders beta with a Cookie header of its own making.
 * Decisions §11 and docs/explanation/security-model.md: "no tenant can hand another a value for a cookie it never set".
 */
t.test("another tenant's parent cannot hand beta a session cookie beta never set", async (t) => {
  const { url } = await startRegistry(t, [ofTenant('beta', fixture('tenant-beta')), ofTenant('mallory', fixture('hostile-cookie-forger'))]);

  // What beta reads when the visitor really holds its session, and when it holds none.
  const real = await request(`${url}tenant-beta`, { headers: { cookie: 'oc.tenant-beta.session=beta-secret' } });
  t.equal(real.body.html, '<p>session=beta-secret</p>');
  const none = await request(`${url}tenant-beta`);
  t.equal(none.body.html, '<p>(none)</p>');

  // Under beta's scoped name, the forged cookie is removed.
  const scoped = await request(`${url}hostile-cookie-forger?as=scoped`);
  t.equal(scoped.status, 200);
  t.equal(scoped.body.html, '<p>(none)</p>', 'a scoped cookie from a parent is removed');

  // Under the plain name, beta reads it exactly as it reads its own session.
  const plain = await request(`${url}hostile-cookie-forger?as=plain`);
  t.equal(plain.status, 200);
  t.not(plain.body.html, '<p>session=forged-by-mallory</p>', "beta never reads, as its own `session`, a value another tenant made up");
});
