import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastify from 'fastify';
import t from 'tap';
import { memoryReducingCollection } from '../../src/front/idle-memory';
import { answerStalledBodies } from '../../src/front/stalled-bodies';

// A full collection, through a context of its own: the process's other contexts (the next test files' of a part) get no `gc`.
const gc = memoryReducingCollection;

/** POSTs `body` on a connection of its own (closed after the answer: no kept-alive socket holds the request); answers the status. */
function post(port: number, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/', agent: false, headers: { 'content-type': 'application/json' } }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode!));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

// The body's idle timer looks every quarter of the idle time (2.5 s at the default): a request answered
// in milliseconds must not wait for it to be collected, or a front under a load of batches holds
// seconds' worth of requests and answers.
t.test('a request whose body was read and answered is collected before its body timer would look again', async (t) => {
  const app = fastify();
  answerStalledBodies(app, 60_000, false);
  const requests: Array<WeakRef<object>> = [];
  app.addHook('onRequest', (request, _reply, done) => {
    requests.push(new WeakRef(request));
    done();
  });
  app.post('/', async (request) => ({ echoed: request.body }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const { port } = app.server.address() as AddressInfo;

  const statuses = await Promise.all(Array.from({ length: 20 }, (_, index) => post(port, JSON.stringify({ index, padding: 'x'.repeat(10_000) }))));
  t.same(statuses, Array.from({ length: 20 }, () => 200));
  // Their sockets close after the answers, later on a busy machine: looked at until none is held, for
  // less than the timer's 15 s (60 s idle time) before it would look again.
  const giveUp = Date.now() + 10_000;
  while (requests.some((held) => held.deref()) && Date.now() < giveUp) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    gc();
  }
  t.equal(requests.length, 20);
  t.equal(requests.filter((held) => held.deref() !== undefined).length, 0, 'none is held (the timer looks again in 15 s)');
});
