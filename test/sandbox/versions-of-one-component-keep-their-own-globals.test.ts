import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { postJson } from '../rendering/post-json';

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

  // Executions of several versions that reach the host together enter the isolate in one call,
  // through a dispatch of its own (workers/version-dispatch.ts): each still runs in its version's context.
  const { status, body } = await postJson(started.url, { omitHref: true, components: ['1.0.0', '1.1.0', '1.0.0', '1.1.0'].map((version) => ({ name: 'version-globals', version })) });
  t.equal(status, 200);
  // Each item's model, as its markup shows it (or the item's answer, when it has none).
  const models = (body as Array<{ status: number; response: { html?: string } }>).map((item) => {
    const shown = /<pre>(.*?)<\/pre>/.exec(item.response.html ?? '');
    return [item.status, shown ? JSON.parse(shown[1]!) : item.response];
  });
  const byVersion = (secret: string) => models.filter(([, model]) => model.found === secret);
  t.same(models.map(([itemStatus]) => itemStatus), [200, 200, 200, 200], 'each item of the batch is answered');
  t.same(byVersion('secret of 1.0.0').map(([, model]) => model.calls).sort(), [4, 5], "1.0.0's items find its secret and go on counting its calls");
  t.same(byVersion('secret of 1.1.0').map(([, model]) => model.calls).sort(), [2, 3], "1.1.0's find their own, never 1.0.0's");
  t.same([...new Set(models.map(([, model]) => model.globals))], ['versionSecret'], 'each context holds its own secret only');
  t.same([models[0]![1].found, models[1]![1].found], ['secret of 1.0.0', 'secret of 1.1.0'], 'in the order asked');
});
