import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { frameOf } from '../../src/sandbox/framed-socket';
import { framedConnection } from './framed-connection';

const until = async (condition: () => boolean) => {
  while (!condition()) await sleep(5);
};

// A front that stops reading its answers (a slow client of its own, a stuck thread) must not make
// the host buffer answers without bound: the host's side of the socket stops taking work until the
// front reads again.
t.test("the host's side stops reading while its answers wait for the front, and reads again once they are taken", async (t) => {
  const { client, batches: received } = await framedConnection(t, { reply: [{ t: 'result', id: 1, answer: 'x'.repeat(4 * 1024 * 1024) }], stopReadingWhileBehind: true });
  client.pause();

  client.write(Buffer.concat(frameOf([{ t: 'execute', id: 1 }])));
  await until(() => received.length === 1);
  client.write(Buffer.concat(frameOf([{ t: 'execute', id: 2 }])));
  await sleep(300);
  t.equal(received.length, 1, 'the second execution is not read while the first answer waits');

  let answered = 0;
  client.on('data', (chunk: Buffer) => (answered += chunk.length));
  client.resume();
  await until(() => received.length === 2);
  t.same(received[1], [{ t: 'execute', id: 2 }], 'once the front reads, the host reads the next execution');
  await until(() => answered >= 2 * (4 * 1024 * 1024));
  t.pass('both answers arrived whole');
});
