import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

// The versions of one component share its isolate (a context each): what one version leaves in its
// global object or module state, another version never sees.
t.test('two versions of one component in one isolate: each keeps its own globals and module state', async (t) => {
  const started = await startRegistry(t, [fixture('version-globals-1.0.0'), fixture('version-globals-1.1.0')], (config) => {
    config.limits.sandboxHosts = 1; // both versions in the same host, so in the same isolate
  });
  const unrendered = { headers: { accept: 'application/vnd.oc.unrendered+json' } };
  const data = async (version: string) => (await request(`${started.url}version-globals/${version}`, unrendered)).body.data;

  t.same(await data('1.0.0'), { found: 'none', globals: '', calls: 1 }, '1.0.0 starts with an empty global object');
  t.same(await data('1.0.0'), { found: 'secret of 1.0.0', globals: 'versionSecret', calls: 2 }, '1.0.0 finds its own secret and module state again');
  t.same(await data('1.1.0'), { found: 'none', globals: '', calls: 1 }, '1.1.0 finds neither the secret nor the module state of 1.0.0');
  t.same(await data('1.0.0'), { found: 'secret of 1.0.0', globals: 'versionSecret', calls: 3 }, "1.0.0 still has its own, untouched by 1.1.0's");
});
