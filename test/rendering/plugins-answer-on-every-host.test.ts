import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('plugin calls made at once from isolates on several hosts are all answered promptly', async (t) => {
  const { url } = await startRegistry(t, [fixture('rendering-plugins')], (config) => {
    config.limits.sandboxHosts = 2;
    // A plugin call left unanswered would hold its render to this limit. 2 s was passed by all 16
    // renders of a round on a machine running two test suites at once (load average about 15).
    config.limits.executionTimeoutMs = 10_000;
    config.plugins = [
      { name: 'shout', description: 'upper-cases text', func: (text) => String(text).toUpperCase() },
      { name: 'slowAdd', description: 'adds after a moment', func: (a, b) => new Promise((resolve) => setTimeout(() => resolve(Number(a) + Number(b)), 20)) },
      { name: 'failing', description: 'always throws', func: () => Promise.reject(new Error('plugin broke')) },
    ];
  });
  await request(`${url}rendering-plugins`); // builds the isolates, which is not what is measured
  for (let round = 0; round < 3; round++) {
    const answers = await Promise.all(Array.from({ length: 16 }, () => request(`${url}rendering-plugins`)));
    t.same(
      answers.map((answer) => [answer.status, answer.body.html ?? answer.body.error]),
      Array.from({ length: 16 }, () => [200, '<p>seen=failing,shout,slowAdd secret=undefined shout=HELLO sum=5 failure=plugin broke</p>']),
      `round ${round}`,
    );
  }
});
