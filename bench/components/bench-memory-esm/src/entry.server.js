import { Server } from 'oc-server';

export const server = new Server()
  .withParameters({ name: { type: 'string', default: 'World' } })
  .handler(async (params) => ({ name: String(params.name) }));
