import t from 'tap';
import type net from 'node:net';
import { frameOf } from '../../src/sandbox/framed-socket';
import { framedConnection as connected } from './framed-connection';

const frame = (batch: unknown[]): Buffer => Buffer.concat(frameOf(batch));

const written = (socket: net.Socket, bytes: Buffer) => new Promise<void>((resolve) => socket.write(bytes, () => resolve()));
const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
};

t.test('frames cut anywhere, large ones in many chunks, several in one chunk: each batch arrives once, whole', async (t) => {
  const { client, batches } = await connected(t);
  const small = frame([{ t: 'result', id: 1, answer: '{"ok":true}' }]);
  // One byte at a time, the head cut too.
  for (const byte of small) await written(client, Buffer.from([byte]));
  // A 5 MB answer in 1 KB writes, then two frames in one write.
  const large = frame([{ t: 'result', id: 2, answer: 'x'.repeat(5 * 1024 * 1024) }]);
  for (let offset = 0; offset < large.length; offset += 1024) await written(client, large.subarray(offset, offset + 1024));
  await written(client, Buffer.concat([frame([{ t: 'ping', id: 3 }]), frame([{ t: 'ping', id: 4 }])]));
  await until(() => batches.length === 4);
  t.same(batches[0], [{ t: 'result', id: 1, answer: '{"ok":true}' }]);
  t.equal((batches[1]![0] as { answer: string }).answer.length, 5 * 1024 * 1024);
  t.same(batches.slice(2), [[{ t: 'ping', id: 3 }], [{ t: 'ping', id: 4 }]]);
});

t.test('text of every kind arrives as it was sent, whatever byte a chunk ends on', async (t) => {
  const { client, batches } = await connected(t);
  // Accents, a 4-byte emoji, a lone surrogate, quotes and a line break: cut at every byte.
  const answer = 'é "Ada" 👩🏽‍💻 \ud800 end\n\u2028';
  const bytes = frame([{ t: 'result', id: 1, answer }, { t: 'pong', id: 2, warmIsolates: 0, heapBytes: 0, rssBytes: 1.5 }]);
  for (const byte of bytes) await written(client, Buffer.from([byte]));
  await until(() => batches.length === 1);
  t.same(batches[0], [{ t: 'result', id: 1, answer }, { t: 'pong', id: 2, warmIsolates: 0, heapBytes: 0, rssBytes: 1.5 }]);
  t.equal((batches[0]![0] as { answer: string }).answer, answer, 'the very same string, lone surrogate included');
});

t.test('a frame announced over the bound cuts the connection', async (t) => {
  const { client, batches, closed } = await connected(t);
  const head = Buffer.alloc(5);
  head.writeUInt32BE(0xffffffff, 0);
  client.write(head);
  await closed;
  t.same(batches, [], 'nothing was read');
});

t.test('a frame written in no known way cuts the connection', async (t) => {
  const { client, batches, closed } = await connected(t);
  const frame = Buffer.concat(frameOf([{ t: 'ping', id: 1 }]));
  frame[4] = 7;
  client.write(frame);
  await closed;
  t.same(batches, [], 'nothing was read');
});

t.test('a frame whose body holds no batch cuts the connection, and throws nowhere', async (t) => {
  for (const body of ['{"t":"ping"', '{"t":"ping","id":1}']) {
    const { client, batches, closed } = await connected(t);
    const head = Buffer.alloc(5);
    head.writeUInt32BE(Buffer.byteLength(body), 0);
    client.write(Buffer.concat([head, Buffer.from(body)]));
    await closed;
    t.same(batches, [], `${body}: nothing was read`);
  }
});

/** A frame of JSON and bulk strings after it (framed-socket.ts, AS_SPLIT), written by hand. */
const splitFrame = (json: string, strings: string): Buffer => {
  const body = Buffer.concat([Buffer.alloc(4), Buffer.from(json), Buffer.from(strings)]);
  body.writeUInt32BE(Buffer.byteLength(json), 0);
  const head = Buffer.alloc(5);
  head.writeUInt32BE(body.length, 0);
  head[4] = 2;
  return Buffer.concat([head, body]);
};

t.test('a frame whose bulk strings do not match the lengths it gives cuts the connection, and throws nowhere', async (t) => {
  const cases: Array<[string, string, string]> = [
    ['[{"t":"result","id":1,"answer":5}]', 'abc', 'longer than the strings'],
    ['[{"t":"result","id":1,"answer":2}]', 'abc', 'shorter than the strings'],
    ['[{"t":"result","id":1,"answer":-1}]', '', 'negative'],
    ['[{"t":"result","id":1,"answer":1.5}]', 'ab', 'not whole'],
    ['[{"t":"ping","id":1}]', 'stray', 'strings no message names'],
    ['{"t":"ping","id":1}', '', 'no batch'],
  ];
  for (const [json, strings, what] of cases) {
    const { client, batches, closed } = await connected(t);
    client.write(splitFrame(json, strings));
    await closed;
    t.same(batches, [], `${what}: nothing was read`);
  }
  const head = Buffer.alloc(7);
  head.writeUInt32BE(2, 0);
  head[4] = 2;
  const { client, batches, closed } = await connected(t);
  client.write(head);
  await closed;
  t.same(batches, [], 'a body too short to hold its JSON length: nothing was read');
});

t.test('a frame written by hand with its bulk strings after the JSON is read whole, lengths counted in UTF-16 units', async (t) => {
  const { client, batches } = await connected(t);
  client.write(splitFrame('[{"t":"result","id":1,"answer":2},{"t":"ping","id":2},{"t":"result","id":3,"answer":2}]', 'é"👩'));
  await until(() => batches.length === 1);
  t.strictSame(batches[0], [{ t: 'result', id: 1, answer: 'é"' }, { t: 'ping', id: 2 }, { t: 'result', id: 3, answer: '👩' }]);
});

t.test('large batches and batches holding objects arrive as they were sent too', async (t) => {
  const { client, batches } = await connected(t);
  const answer = `é "Ada" 👩🏽‍💻 \ud800 ${'x'.repeat(100_000)}`;
  const code = { template: 'var oc;', templateKey: 'k', constants: { name: 'n', cookieScope: 'n', version: '1.0.0', env: {}, templates: [], plugins: [], relayConsole: false } };
  await written(client, Buffer.concat([frame([{ t: 'result', id: 1, answer }]), frame([{ t: 'execute', id: 2, key: 'k', component: 'c', code, input: '{}', timeoutMs: 5 }])]));
  await until(() => batches.length === 2);
  t.equal((batches[0]![0] as { answer: string }).answer, answer);
  t.same(batches[1], [{ t: 'execute', id: 2, key: 'k', component: 'c', code, input: '{}', timeoutMs: 5 }]);
});
