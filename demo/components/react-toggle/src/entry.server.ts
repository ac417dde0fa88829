import { Server } from 'oc-server';

export const server = new Server()
  .withParameters({
    label: { type: 'string', default: 'Dark mode', description: 'What the switch turns on', example: 'Notifications' },
    on: { type: 'boolean', default: false, description: 'Whether it starts on' },
  })
  .handler(async (params) => ({ label: String(params.label), on: params.on === true }));
