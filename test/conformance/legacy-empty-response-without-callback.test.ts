import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { postJson } from '../rendering/post-json';

/** Each request is timed: one that waited for the time limit would take this long at least. */
const LIMIT_MS = 10_000;

t.test('a legacy data() that returns context.setEmptyResponse() without calling back answers an empty response at once', async (t) => {
  const { url } = await startRegistry(t, [fixture('core-legacy')], (config) => {
    config.limits.executionTimeoutMs = LIMIT_MS;
  });
  const took: number[] = [];
  const timed = async <T>(send: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const answer = await send();
    took.push(Math.round(performance.now() - started));
    return answer;
  };
  const rendered = await timed(() => request(`${url}core-legacy?outcome=empty`));
  t.equal(rendered.status, 200);
  t.strictSame(rendered.body, {
    href: `${url}core-legacy?outcome=empty&name=World`,
    name: 'core-legacy',
    version: '1.0.0',
    requestVersion: '',
    html: '',
    type: 'oc-component',
    renderMode: 'rendered',
    baseUrl: url,
  });

  const unrendered = await timed(() => request(`${url}core-legacy?outcome=empty`, { headers: { accept: 'application/vnd.oc.unrendered+json' } }));
  t.equal(unrendered.status, 200);
  t.strictSame(unrendered.body.data, { __oc_emptyResponse: true });

  const batch = await timed(() => postJson(url, { components: [{ name: 'core-legacy', parameters: { outcome: 'empty' } }, { name: 'core-legacy' }] }));
  t.equal(batch.status, 200);
  t.same(
    batch.body.map((item: { status: number; response: { html: string } }) => [item.status, item.response.html === '']),
    [
      [200, true],
      [200, false],
    ],
  );
  t.ok(took.every((ms) => ms < LIMIT_MS), `no answer waited for the time limit (${took.join(', ')} ms)`);
});
