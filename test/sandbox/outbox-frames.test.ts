import t from 'tap';
import { setImmediate as turnEnd } from 'node:timers/promises';
import { Outbox } from '../../src/sandbox/outbox';

/** An outbox whose frames are kept, in the order they were sent. */
function recorded(frameSize?: number): { outbox: Outbox<string>; frames: string[][] } {
  const frames: string[][] = [];
  return { outbox: new Outbox<string>((frame) => frames.push(frame), frameSize), frames };
}

t.test('without a frame size, a turn\'s messages leave together once the turn ends', async (t) => {
  const { outbox, frames } = recorded();
  for (const message of ['a1', 'a2', 'a3', 'a4']) outbox.post(message, 'a');
  outbox.post('cancel');
  t.same(frames, [], 'nothing leaves before the turn ends');
  await turnEnd();
  t.same(frames, [['a1', 'a2', 'a3', 'a4', 'cancel']]);
  await turnEnd();
  t.same(frames.length, 1, 'a turn with nothing posted sends nothing');
});

t.test('a frame leaves as soon as it holds the frame size of one group, the rest at the turn\'s end', async (t) => {
  const { outbox, frames } = recorded(3);
  outbox.post('a1', 'a');
  outbox.post('a2', 'a');
  t.same(frames, []);
  outbox.post('a3', 'a');
  t.same(frames, [['a1', 'a2', 'a3']], 'the third message of the group sends the frame at once');
  outbox.post('a4', 'a');
  await turnEnd();
  t.same(frames, [['a1', 'a2', 'a3'], ['a4']]);
});

t.test('messages of several groups are counted apart: a frame leaves when one group fills it, with every message before, in order', async (t) => {
  const { outbox, frames } = recorded(3);
  for (const round of [1, 2]) for (const group of ['a', 'b', 'c']) outbox.post(`${group}${round}`, group);
  t.same(frames, [], 'six messages of three groups, none of them three');
  outbox.post('cancel');
  outbox.post('b3', 'b');
  t.same(frames, [['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'cancel', 'b3']]);
  // The counts start again with the next frame.
  outbox.post('a3', 'a');
  outbox.post('a4', 'a');
  await turnEnd();
  t.same(frames.at(-1), ['a3', 'a4']);
  t.equal(frames.length, 2);
});

t.test('messages of no group never send a frame early', async (t) => {
  const { outbox, frames } = recorded(2);
  for (let index = 0; index < 10; index++) outbox.post(`ping${index}`);
  t.same(frames, []);
  await turnEnd();
  t.equal(frames.length, 1);
  t.equal(frames[0]!.length, 10);
});

t.test('a turn whose messages all left early sends no empty frame', async (t) => {
  const { outbox, frames } = recorded(2);
  outbox.post('a1', 'a');
  outbox.post('a2', 'a');
  await turnEnd();
  await turnEnd();
  t.same(frames, [['a1', 'a2']]);
});
