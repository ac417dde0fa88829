import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';

t.test('what one component writes to its global object, another cannot read', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-global-writer'), fixture('hostile-global-reader'), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 1; // all three components live in the same host
  });
  const unrendered = { headers: { accept: 'application/vnd.oc.unrendered+json' } };
  const [wrote] = await Promise.all([
    request(`${started.url}hostile-global-writer`, unrendered),
    bystanderRenders(t, started, 'Concurrent', 'bystander while the writer leaves its secret'),
  ]);
  t.same(wrote.body.data, { wrote: 'writer-secret' }, 'the writer kept its secret in its own global object');
  const read = await request(`${started.url}hostile-global-reader`, unrendered);
  t.same(read.body.data, { found: 'undefined', globals: '' }, 'the reader finds neither the secret nor any global the writer made');
  await bystanderRenders(t, started, 'After', 'bystander right after');
});
