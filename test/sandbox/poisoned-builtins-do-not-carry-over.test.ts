import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';

const EXPECTED = {
  attempts: {
    'Array.prototype.map =': 'refused',
    'delete Array.prototype.map': 'refused',
    'JSON.stringify =': 'refused',
    'globalThis.JSON =': 'refused',
    'Object.prototype.polluted =': 'refused',
    'Promise.prototype.then =': 'refused',
    'String.prototype.replace =': 'refused',
    'Function.prototype.call =': 'threw TypeError',
    'Error.prepareStackTrace =': 'refused',
    'console.log =': 'refused',
    'setPrototypeOf(Array.prototype, null)': 'refused',
    'defineProperty(Object.prototype, toString)': 'refused',
  },
  behaviour: {
    map: '2,4,6',
    stringify: '{"a":1}',
    polluted: 'undefined',
    then: 'settled',
    replace: 'aBc',
    toString: '[object Array]',
  },
};

t.test('a component that mutates shared built-ins poisons neither its next request nor another component', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-poison-builtins'), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 1; // every request lands in the same warm isolate
  });
  const poison = () => request(`${started.url}hostile-poison-builtins`, { headers: { accept: 'application/vnd.oc.unrendered+json' } });

  const [first] = await Promise.all([poison(), bystanderRenders(t, started, 'Concurrent', 'bystander while the built-ins are attacked')]);
  t.equal(first.status, 200);
  t.same(first.body.data, EXPECTED, 'every mutation is refused and the built-ins behave');
  const second = await poison();
  t.same(second.body.data, EXPECTED, 'the next request in the same warm isolate finds them intact');
  await bystanderRenders(t, started, 'After', 'bystander right after');
});
