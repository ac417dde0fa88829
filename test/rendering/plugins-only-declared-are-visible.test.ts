import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';

t.test('ctx.plugins holds only the declared plugins; calls cross by copy, may be async, and fail as errors', async (t) => {
  const received: unknown[] = [];
  const { url } = await startRegistry(t, [fixture('rendering-plugins')], (config) => {
    config.plugins = [
      {
        name: 'shout',
        description: 'upper-cases text',
        func: (text, options) => {
          received.push(options);
          return String(text).toUpperCase().repeat(Number((options as { times?: number }).times ?? 1));
        },
      },
      {
        name: 'slowAdd',
        description: 'adds after a moment',
        func: async (a, b) => {
          await new Promise((resolve) => setTimeout(resolve, 10));
          return Number(a) + Number(b);
        },
      },
      {
        name: 'failing',
        description: 'always throws',
        func: () => {
          throw new Error('plugin broke');
        },
      },
      { name: 'secret', description: 'configured but not declared by the component', func: () => 'secret' },
    ];
  });
  const { status, body } = await request(`${url}rendering-plugins`);
  t.equal(status, 200);
  t.equal(body.html, '<p>seen=failing,shout,slowAdd secret=undefined shout=HELLOHELLO sum=5 failure=plugin broke</p>');
  t.same(received, [{ times: 2 }]);
});
