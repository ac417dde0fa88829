import t from 'tap';
import { fixture, startRegistry } from '../helpers/start-registry';
import { postJson } from './post-json';

t.test('batch items run at the same time', async (t) => {
  // The barrier lets a caller through only once both have arrived: items run one after the other would never meet.
  const waiting: Array<() => void> = [];
  const { url } = await startRegistry(t, [fixture('rendering-barrier-left'), fixture('rendering-barrier-right')], (config) => {
    config.limits.executionTimeoutMs = 3000;
    config.plugins = [
      {
        name: 'barrier',
        description: 'waits for two callers',
        func: (side) =>
          new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`${String(side)} waited alone`)), 1500);
            waiting.push(() => {
              clearTimeout(timer);
              resolve(`${String(side)} met the other side`);
            });
            if (waiting.length === 2) for (const release of waiting.splice(0)) release();
          }),
      },
    ];
  });
  const { status, body } = await postJson(url, { omitHref: true, components: [{ name: 'rendering-barrier-left' }, { name: 'rendering-barrier-right' }] });
  t.equal(status, 200);
  t.same(
    body.map((item: { status: number; response: { html?: string; error?: string } }) => [item.status, item.response.html ?? item.response.error]),
    [
      [200, '<p>left met the other side</p>'],
      [200, '<p>right met the other side</p>'],
    ],
  );
});
