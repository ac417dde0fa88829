import t from 'tap';
import { frameOf } from '../../src/sandbox/framed-socket';
import type { ExecuteMessage } from '../../src/sandbox/protocol';

/** How a frame's body is written: its fifth byte (0: JSON, 1: V8's serialization). */
const writtenAs = (frame: Buffer[]) => (frame[0]![4] === 0 ? 'JSON' : frame[0]![4] === 1 ? 'V8' : 'unknown');

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
    t.equal(writtenAs(frame), 'JSON');
    t.same(JSON.parse(frame[0]!.subarray(5).toString('utf8')), batch);
  }
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
