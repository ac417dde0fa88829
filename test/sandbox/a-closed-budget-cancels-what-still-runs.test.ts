import t from 'tap';
import { TesseraError } from '../../src/errors/errors';
import { RequestBudget } from '../../src/sandbox/request-budget';

const LIMITS = { timeoutMs: 5000, maxExecutions: 10, maxSlots: 10, maxNestedChars: 1000 };

// A request's budget keeps its first running execution's cancel apart from the others (most
// requests run one): closing it must still cancel every execution that runs, each once, and none
// that already ended, whichever it was.
t.test('closing a budget cancels each execution still running once, and none that ended', async (t) => {
  const budget = new RequestBudget(LIMITS);
  const cancelled: string[] = [];
  const untrack = ['first', 'second', 'third', 'fourth'].map((name) => budget.track(() => cancelled.push(name)));
  untrack[0]!();
  untrack[2]!();
  // A cancel that ends its execution untracks it, as the pool's does.
  const late = budget.track(() => {
    cancelled.push('fifth');
    late();
  });
  budget.close();
  t.same(cancelled.sort(), ['fifth', 'fourth', 'second']);
  budget.close();
  t.equal(cancelled.length, 3, 'a second close cancels nothing again');
  t.throws(() => budget.assertOpen(), new TesseraError('EXECUTION_CANCELLED'));
});

t.test('an execution tracked after the first ended takes its place, and is cancelled on close', async (t) => {
  const budget = new RequestBudget(LIMITS);
  const cancelled: string[] = [];
  const untrackFirst = budget.track(() => cancelled.push('first'));
  untrackFirst();
  budget.track(() => cancelled.push('second'));
  const untrackThird = budget.track(() => cancelled.push('third'));
  untrackThird();
  // The first one's untrack called again must leave the execution in its place tracked.
  untrackFirst();
  budget.close();
  t.same(cancelled, ['second']);
});
