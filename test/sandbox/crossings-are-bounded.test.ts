import t from 'tap';
import { fixture, request, startRegistry, TWO_HOSTS } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';

const NAME = 'hostile-crossings';
const failed = (error: string) => ({ code: 'GENERIC_ERROR', error: `Component "${NAME}" failed: ${error}`, name: NAME, requestVersion: '' });

t.test('every value leaving the sandbox is bounded, and tenant code cannot forge a coded error', async (t) => {
  const started = await startRegistry(t, [fixture(NAME), BYSTANDER], TWO_HOSTS);
  const cases: Array<[string, number, unknown]> = [
    ['message', 500, failed(`${'x'.repeat(1000)}…`)],
    ['forged-details', 500, failed('forged')],
    ['header', 500, failed('Header "x-big" is over its size limit.')],
    ['cookies', 500, failed('A component may set at most 8 cookies in one answer.')],
    ['cookie-bytes', 500, failed('The cookies of one answer may hold at most 4096 bytes together.')],
    ['cookie-encoded', 500, failed('setCookie: cookie "wide" is over its size limit of 4096 bytes.')],
  ];
  for (const [attack, status, body] of cases) {
    const answer = await request(`${started.url}${NAME}?attack=${attack}`);
    t.equal(answer.status, status, `${attack}: status`);
    t.same(answer.body, body, `${attack}: body`);
  }
  const fit = await request(`${started.url}${NAME}?attack=cookies-that-fit`);
  t.equal(fit.status, 200, 'two cookies of 2 KB each fit in one answer');
  t.same(
    fit.headers.getSetCookie().map((cookie) => cookie.length),
    [`oc.${NAME}.first=`.length + 2000 + '; Path=/'.length, `oc.${NAME}.second=`.length + 2000 + '; Path=/'.length],
  );
  const nested = await request(`${started.url}${NAME}?attack=nested-arguments`);
  t.equal(nested.status, 200);
  t.equal(nested.body.html, '<p>The arguments of a nested render are over 65536 characters.</p>', 'nested-render arguments are refused inside the sandbox');
  await bystanderRenders(t, started, 'After', 'another tenant after the crossings');
});
