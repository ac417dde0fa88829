import t from 'tap';
import { isLetGo, isLive, moveTo, type ExecutionState } from '../../workers/execution-state';

const at = (state: ExecutionState) => ({ state });

t.test("an execution's life: each allowed move passes", async (t) => {
  const lives: ExecutionState[][] = [
    ['queued', 'running', 'answered', 'ended'],
    ['queued', 'running', 'waiting', 'running', 'waiting', 'answered', 'ended'],
    ['queued', 'running', 'waiting', 'cancelled', 'ended'],
    ['queued', 'cancelled', 'ended'],
    ['queued', 'expired', 'ended'],
    ['queued', 'running', 'answered', 'expired', 'ended'],
    ['queued', 'running', 'ended'],
    ['queued', 'disposed'],
    ['queued', 'running', 'waiting', 'disposed'],
    ['queued', 'running', 'answered', 'cancelled', 'disposed'],
  ];
  for (const life of lives) {
    const execution = at(life[0]!);
    for (const next of life.slice(1)) moveTo(execution, next);
    t.equal(execution.state, life.at(-1), life.join(' → '));
  }
});

t.test('an impossible move throws, and leaves the state as it was', async (t) => {
  const impossible: Array<[ExecutionState, ExecutionState]> = [
    ['queued', 'waiting'],
    ['queued', 'answered'],
    ['queued', 'ended'],
    ['answered', 'running'],
    ['answered', 'waiting'],
    ['cancelled', 'running'],
    ['cancelled', 'expired'],
    ['expired', 'cancelled'],
    ['ended', 'running'],
    ['ended', 'disposed'],
    ['disposed', 'ended'],
  ];
  for (const [from, to] of impossible) {
    const execution = at(from);
    t.throws(() => moveTo(execution, to), { name: 'ImpossibleMove', message: `An execution cannot move from ${from} to ${to}.` }, `${from} → ${to}`);
    t.equal(execution.state, from);
  }
});

t.test('who is still waited for, and who was let go', async (t) => {
  t.same((['queued', 'running', 'waiting'] as const).map(isLive), [true, true, true]);
  t.same((['answered', 'cancelled', 'expired', 'ended', 'disposed'] as const).map(isLive), [false, false, false, false, false]);
  t.same((['cancelled', 'expired'] as const).map(isLetGo), [true, true]);
  t.same((['queued', 'running', 'waiting', 'answered'] as const).map(isLetGo), [false, false, false, false]);
});
