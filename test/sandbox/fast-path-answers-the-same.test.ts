import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { postJson } from '../rendering/post-json';

/**
 * Requests whose answers cover every outcome of an execution: models, empty and missing responses,
 * errors from the handler and the view, legacy callbacks, both render modes, headers and cookies,
 * actions behind a middleware. Each is asked 8 times on one worker: the first answers come from
 * isolated-vm's threads, the later ones from the fast path (workers/fast-path.ts). All must match.
 */
const GETS = [
  'core-outcomes?outcome=model',
  'core-outcomes?outcome=empty',
  'core-outcomes?outcome=nothing',
  'core-outcomes?outcome=circular',
  'core-outcomes?outcome=view-throws',
  'core-failing?kind=teapot',
  'core-legacy?name=Ada&outcome=model',
  'core-legacy/1.0.0?outcome=error',
  'core-modes?name=Ada&__ocAcceptLanguage=pt',
  'rendering-headers?case=headers',
  'rendering-headers?case=cookies',
];
const ROUNDS = 8;

/**
 * The answer with what differs by design blanked out: the wrapper's per-render id, and the
 * `Expires` that a cookie's `maxAge` counts from the current second.
 */
const comparable = (answer: { status: number; headers: Headers; text: string }) => ({
  status: answer.status,
  setCookie: answer.headers.getSetCookie().map((cookie) => cookie.replace(/(Max-Age=\d+); Expires=[^;]+/, '$1; Expires=NOW+MAX-AGE')),
  servedBy: answer.headers.get('x-served-by'),
  body: answer.text.replace(/ id=\\"[0-9a-f-]{36}\\"/g, ' id=\\"ID\\"'),
});

t.test('every kind of answer is the same on the fast path as before it', async (t) => {
  const fixtures = ['core-outcomes', 'core-failing', 'core-legacy', 'core-modes', 'rendering-headers', 'rendering-actions'];
  const { url, registry } = await startRegistry(t, fixtures.map(fixture), (config) => {
    config.limits.workers = 1;
  });
  const asks: Array<[string, () => Promise<ReturnType<typeof comparable>>]> = GETS.map((path) => [path, async () => comparable(await request(`${url}${path}`))]);
  asks.push([
    'POST ~actions/double/rendering-actions',
    async () => comparable(await postJson(`${url}~actions/double/rendering-actions`, { amount: 21 }, { authorization: 'Bearer letmein' })),
  ]);
  const first = new Map<string, ReturnType<typeof comparable>>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, ask] of asks) {
      const answer = await ask();
      if (round === 1) first.set(name, answer);
      else t.same(answer, first.get(name), `${name}, round ${round}`);
    }
  }
  // Without this, the rounds could all have run the old way and still matched.
  t.ok(registry.pool.fastPathExecutions >= asks.length, `at least a round's executions ran on the fast path (${registry.pool.fastPathExecutions})`);
  t.same(
    [...first.values()].map((answer) => answer.status),
    [200, 200, 200, 500, 500, 418, 200, 500, 200, 200, 200, 200],
    'the first answers cover successes and failures',
  );
});
