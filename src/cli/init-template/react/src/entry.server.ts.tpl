import { Server } from 'oc-server';

// The server logic: runs in the registry's sandbox for each request; what it returns is the view's model.
export const server = new Server()
  .withParameters({
    name: { type: 'string', default: 'World', description: 'Who to greet', example: 'Ada' },
  })
  .handler(async (params, ctx) => ({ name: String(params.name), staticPath: ctx.staticPath }));
