import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('parameter failures answer 400 NOT_VALID_REQUEST with details.parameters', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-params')], (config) => {
    config.limits.sandboxHosts = 1;
  });
  const invalid = (error: string, parameters: object[], requestVersion = '') => ({
    code: 'NOT_VALID_REQUEST',
    error,
    name: 'core-params',
    requestVersion,
    details: { parameters },
  });

  const missing = await request(`${url}core-params`);
  t.equal(missing.status, 400);
  t.same(missing.body, invalid('Parameter "city" is mandatory and missing.', [{ name: 'city', problem: 'missing' }]));

  const versioned = await request(`${url}core-params/1.x?units=metric`);
  t.equal(versioned.status, 400);
  t.same(versioned.body, invalid('Parameter "city" is mandatory and missing.', [{ name: 'city', problem: 'missing' }], '1.x'));

  const outsideEnum = await request(`${url}core-params?city=Lisbon&units=kelvin`);
  t.equal(outsideEnum.status, 400);
  t.same(
    outsideEnum.body,
    invalid('Parameter "units" must be one of: metric, imperial.', [{ name: 'units', problem: 'not allowed', allowed: ['metric', 'imperial'] }]),
    'the enum message and details list the allowed values',
  );

  for (const days of ['abc', '', '3days', '0x10', 'NaN', 'Infinity', '1e400']) {
    const { status, body } = await request(`${url}core-params?city=Lisbon&days=${encodeURIComponent(days)}`);
    t.equal(status, 400, `days="${days}" is not a number`);
    t.same(body, invalid('Parameter "days" must be a number.', [{ name: 'days', problem: 'wrong type' }]));
  }

  for (const compact of ['yes', '1', 'TRUE', '']) {
    const { status, body } = await request(`${url}core-params?city=Lisbon&compact=${compact}`);
    t.equal(status, 400, `compact="${compact}" is not a boolean`);
    t.same(body, invalid('Parameter "compact" must be a boolean.', [{ name: 'compact', problem: 'wrong type' }]));
  }

  const several = await request(`${url}core-params?units=kelvin&days=many&compact=maybe`);
  t.equal(several.status, 400);
  t.same(
    several.body,
    invalid(
      'Parameter "city" is mandatory and missing. Parameter "units" must be one of: metric, imperial. ' +
        'Parameter "days" must be a number. Parameter "compact" must be a boolean.',
      [
        { name: 'city', problem: 'missing' },
        { name: 'units', problem: 'not allowed', allowed: ['metric', 'imperial'] },
        { name: 'days', problem: 'wrong type' },
        { name: 'compact', problem: 'wrong type' },
      ],
    ),
    'every problem is reported at once',
  );

  const unrendered = await request(`${url}core-params?units=kelvin&city=Lisbon`, { headers: { accept: 'application/vnd.oc.unrendered+json' } });
  t.equal(unrendered.status, 400, 'unrendered mode validates the same way');
  t.equal(unrendered.body.code, 'NOT_VALID_REQUEST');
});
