import { Server } from 'oc-server';

export const server = new Server()
  .withParameters({ label: { type: 'string', default: 'badge' } })
  .handler(async (params) => ({ label: String(params.label) }));
