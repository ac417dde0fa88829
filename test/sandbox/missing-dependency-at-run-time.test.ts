import t from 'tap';
import { fixture, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { BYSTANDER, hostileBesideBystander } from './bystander';

t.test('a require of a module the bundle lacks answers 501 DEPENDENCY_MISSING_FROM_REGISTRY naming it', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-missing-dependency'), BYSTANDER], TWO_HOSTS);
  await hostileBesideBystander(t, started, 'hostile-missing-dependency', {
    status: 501,
    body: {
      code: 'DEPENDENCY_MISSING_FROM_REGISTRY',
      error: 'Module "left-pad" is not bundled with the component and the registry does not provide it.',
      name: 'hostile-missing-dependency',
      requestVersion: '',
      details: { missingDependencies: ['left-pad'] },
    },
  });
});
