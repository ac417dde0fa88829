import http from 'node:http';
import t from 'tap';
import { startRegistry } from '../helpers/start-registry';
import { ADMIN_TOKEN, withAdmin } from '../tenants/admin-helpers';

/** Enough requests that every front thread gets several (the kernel hands each new connection to one of them). */
const REQUESTS = 30;

/** A request on a connection of its own, so that any front thread may serve it. */
function fresh(url: string, method: string, token: string, body?: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (text !== undefined) headers['content-type'] = 'application/json';
    const req = http.request(url, { method, agent: false, headers }, (response) => {
      let answer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (answer += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(answer) }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

/** What the tenant's token is answered on many connections, each by whichever front thread took it. */
async function statusesOf(url: string, token: string): Promise<number[]> {
  // Unpublishing a version never published: 404 for a token in force, 401 for one unknown or revoked.
  const answers = await Promise.all(Array.from({ length: REQUESTS }, () => fresh(`${url}team-t-widget/1.0.0`, 'DELETE', token)));
  return [...new Set(answers.map((answer) => answer.status))];
}

/**
 * A tenant, token or revocation written through one front thread is in force on every front thread
 * of the replica before the admin request is answered: with polling off, nothing else tells them.
 */
t.test('a token created or revoked through any front thread is in force on all of them once answered', async (t) => {
  const { url } = await startRegistry(t, [], (config) => {
    withAdmin(config);
    config.limits.frontThreads = 3;
  });
  const created = await fresh(`${url}~admin/tenants`, 'POST', ADMIN_TOKEN, { name: 'team-t', components: ['team-t-*'] });
  t.equal(created.status, 201);
  const token = await fresh(`${url}~admin/tenants/team-t/tokens`, 'POST', ADMIN_TOKEN);
  t.equal(token.status, 201);
  t.same(await statusesOf(url, token.body.token), [404], 'every front thread knows the new token');

  const revoked = await fresh(`${url}~admin/tokens/${token.body.id}`, 'DELETE', ADMIN_TOKEN);
  t.equal(revoked.status, 200);
  t.same(await statusesOf(url, token.body.token), [401], 'and every front thread refuses it once revoked');

  // Created through whichever thread, read through any: the tenant is known everywhere too.
  const answers = await Promise.all(Array.from({ length: 10 }, () => fresh(`${url}~admin/tenants/team-t/tokens`, 'POST', ADMIN_TOKEN)));
  t.same([...new Set(answers.map((answer) => answer.status))], [201]);
  for (const answer of answers) t.same(await statusesOf(url, answer.body.token), [404], `token ${answer.body.id}`);
});
