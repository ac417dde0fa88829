import t from 'tap';
import { batchOfFrame, frameOf } from '../../src/sandbox/framed-socket';
import type { ExecuteMessage } from '../../src/sandbox/protocol';

/** How a frame's body is written: its fifth byte (0: JSON, 1: V8's serialization, 2: JSON with its bulk strings after it). */
const writtenAs = (frame: Buffer[]) => ['JSON', 'V8', 'split JSON'][frame[0]![4]!] ?? 'unknown';

const LEASED: ExecuteMessage = {
  t: 'execute',
  id: 1,
  key: 'parent@1.0.0#abc',
  component: 'parent',
  input: '{}',
  timeoutMs: 5000,
  lease: {
    maxChars: 1000,
    boundChars: 2000,
    forget: true,
    plans: [
      7,
      {
        id: 8,
        name: 'child',
        requested: '1.x',
        version: '1.0.0',
        key: 'child@1.0.0#def',
        component: 'child',
        templateKey: 'k',
        container: false,
        renderInfo: true,
        parameters: { mood: { type: 'string', enum: ['calm', 'glad'] } },
        timeoutMs: 5000,
      },
    ],
  },
};

// JSON in one buffer costs a front about half of V8's serialization, and one write instead of two:
// every execution with a lease (its plans whole or by id), and its answer with what its host ran,
// must still go that way.
t.test('an execution with a lease, and an answer with its nested runs, go as JSON in one buffer', async (t) => {
  for (const batch of [[LEASED], [{ t: 'result', id: 1, answer: '{"ok":true}', nested: [{ plan: 0, ms: 1.5, outcome: 'ok', chars: 20 }] }]]) {
    const frame = frameOf(batch);
    t.equal(frame.length, 1);
    t.equal(writtenAs(frame), 'split JSON');
    t.strictSame(batchOfFrame(frame[0]!), batch);
  }
});

// Escaped inside the JSON, each quote of an input or an answer (JSON themselves) was written and read again.
t.test("the messages' inputs, answers and payloads go after the JSON, unescaped, each replaced there by its length", async (t) => {
  const input = '{"op":"render","params":{"name":"Ada é 👩🏽‍💻"}}';
  const batch = [
    { t: 'execute', id: 1, key: 'k', component: 'c', input, timeoutMs: 5000 },
    { t: 'ping', id: 2 },
    { t: 'bridge-answer', call: 3, answer: '{"ok":true,"html":"<b>\\"</b>"}' },
    { t: 'execute', id: 4, key: 'k', component: 'c', input: '', timeoutMs: 5000 },
  ];
  const [frame] = frameOf(batch);
  t.equal(writtenAs([frame!]), 'split JSON');
  const jsonBytes = frame!.readUInt32BE(5);
  t.strictSame(JSON.parse(frame!.toString('utf8', 9, 9 + jsonBytes)), [
    { t: 'execute', id: 1, key: 'k', component: 'c', input: input.length, timeoutMs: 5000 },
    { t: 'ping', id: 2 },
    { t: 'bridge-answer', call: 3, answer: batch[2]!.answer!.length },
    { t: 'execute', id: 4, key: 'k', component: 'c', input: 0, timeoutMs: 5000 },
  ]);
  t.equal(frame!.toString('utf8', 9 + jsonBytes), input + batch[2]!.answer);
  t.strictSame(batchOfFrame(frame!), batch, 'read back as it was sent');
  t.equal(batch[0]!.input, input, 'the batch sent is left as it was');
});

t.test('a batch with a string UTF-8 cannot carry (a lone surrogate) goes as plain JSON, which writes it escaped', async (t) => {
  const batch = [{ t: 'result', id: 1, answer: '{"ok":true,"html":"\ud800"}' }, { t: 'result', id: 2, answer: 'lone \udc00' }];
  const frame = frameOf(batch);
  t.equal(writtenAs(frame), 'JSON');
  t.strictSame(batchOfFrame(frame[0]!), batch);
});

t.test('a large batch, or one nested deeper than messages are, goes as V8 serialization after its head', async (t) => {
  let deep: unknown = 'bottom';
  for (let level = 0; level < 10; level++) deep = { deeper: deep };
  for (const batch of [[{ t: 'result', id: 1, answer: 'x'.repeat(70 * 1024) }], [{ t: 'result', id: 1, answer: '{}', deep }]]) {
    const frame = frameOf(batch);
    t.equal(frame.length, 2);
    t.equal(writtenAs(frame), 'V8');
  }
});
