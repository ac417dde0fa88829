import { Server } from 'oc-server';

// Each execution loses its isolate to a catastrophic out-of-memory inside V8.
export const server = new Server().handler(() => {
  const map = new Map();
  for (let i = 0; ; i++) map.set(i, i);
});
