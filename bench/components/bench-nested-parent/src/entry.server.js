import { Server } from 'oc-server';

export const server = new Server().handler(async (params, ctx) => {
  const [greeting, badge] = await Promise.all([
    ctx.renderComponent('hello-world', { parameters: { name: 'Ada' } }),
    ctx.renderComponent('bench-nested-badge', { parameters: { label: 'nested' } }),
  ]);
  return { greeting, badge };
});
