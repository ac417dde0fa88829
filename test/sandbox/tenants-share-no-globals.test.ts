import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('what one component writes to its global object, another cannot read', async (t) => {
  const { url } = await startRegistry(t, [fixture('hostile-global-writer'), fixture('hostile-global-reader')], (config) => {
    config.limits.workers = 1; // both components live in the same worker thread
  });
  const unrendered = { headers: { accept: 'application/vnd.oc.unrendered+json' } };
  const wrote = await request(`${url}hostile-global-writer`, unrendered);
  t.same(wrote.body.data, { wrote: 'writer-secret' }, 'the writer kept its secret in its own global object');
  const read = await request(`${url}hostile-global-reader`, unrendered);
  t.same(read.body.data, { found: 'undefined', globals: '' }, 'the reader finds neither the secret nor any global the writer made');
});
