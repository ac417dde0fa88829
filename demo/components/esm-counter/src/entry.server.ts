import { Server } from 'oc-server';

export const server = new Server()
  .withParameters({
    label: { type: 'string', default: 'Visitors', description: 'What is counted', example: 'Cups of tea' },
    start: { type: 'number', default: 0, description: 'Where the count starts', example: '3' },
  })
  .handler(async (params) => ({ label: String(params.label), start: Number(params.start) }));
