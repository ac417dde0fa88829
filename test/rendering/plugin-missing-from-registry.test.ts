import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('a component declaring plugins the registry lacks is PLUGIN_MISSING_FROM_REGISTRY', async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-plugin-missing')], (config) => {
    config.plugins = [{ name: 'shout', description: 'upper-cases text', func: (text) => String(text).toUpperCase() }];
  });
  const { status, body } = await request(`${url}rendering-plugin-missing/1.0.0`);
  t.equal(status, 501);
  t.same(body, {
    code: 'PLUGIN_MISSING_FROM_REGISTRY',
    error: 'The registry lacks the plugins "rendering-plugin-missing" needs: translate, geoLookup.',
    name: 'rendering-plugin-missing',
    requestVersion: '1.0.0',
    details: { missingPlugins: ['translate', 'geoLookup'] },
  });
});
