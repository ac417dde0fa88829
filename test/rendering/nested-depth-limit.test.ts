import t from 'tap';
import { fixture, registryOfTheFile, request, startRegistry } from '../helpers/start-registry';

/** The tests below only read from their registry: one for them all. */
const sharedRegistry = registryOfTheFile([fixture('rendering-self-nesting')]);

t.test('a component that renders itself is stopped at the nesting depth limit', async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await request(`${url}rendering-self-nesting?catch=true`);
  t.equal(status, 200);
  t.equal(body.html, '<b>0</b><b>1</b><b>2</b><b>3</b><b>4</b><b>5</b>stopped: Nested rendering of "rendering-self-nesting" is deeper than the limit of 5 levels.');
});

t.test('uncaught, the depth failure fails the request with its own code: 508 NESTING_TOO_DEEP', async (t) => {
  const { url } = await sharedRegistry();
  const { status, body } = await request(`${url}rendering-self-nesting`);
  t.equal(status, 508);
  t.strictSame(body, {
    code: 'NESTING_TOO_DEEP',
    error: 'Nested rendering of "rendering-self-nesting" is deeper than the limit of 5 levels.',
    name: 'rendering-self-nesting',
    requestVersion: '',
  });
});

t.test('the limit is the configured nestingDepth', async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-self-nesting')], (config) => {
    config.limits.nestingDepth = 2;
  });
  const { body } = await request(`${url}rendering-self-nesting?catch=true`);
  t.equal(body.html, '<b>0</b><b>1</b><b>2</b>stopped: Nested rendering of "rendering-self-nesting" is deeper than the limit of 2 levels.');
});
