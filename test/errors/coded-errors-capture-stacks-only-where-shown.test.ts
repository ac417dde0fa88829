import t from 'tap';
import { TesseraError } from '../../src/errors/errors';

// A registry that shows no stacks (any but a development one) has its coded errors made without
// one: capturing it cost the front a fifth of its CPU under a flood of 404s. Every other error, and
// a coded error's cause, keeps its stack.
t.test('a coded error made where stacks are not shown carries none, and leaves other errors theirs', async (t) => {
  const kept = TesseraError.keepStacks;
  t.teardown(() => {
    TesseraError.keepStacks = kept;
  });
  const limit = Error.stackTraceLimit;

  TesseraError.keepStacks = false;
  const cause = new Error('disk gone');
  const coded = new TesseraError('NOT_FOUND', 'Component "x" is not published on this registry.', { cause });
  t.equal(coded.stack, 'TesseraError: Component "x" is not published on this registry.');
  t.equal(coded.code, 'NOT_FOUND');
  t.equal(coded.status, 404);
  t.equal(coded.cause, cause);
  t.match(cause.stack, /^Error: disk gone\n\s+at /, 'its cause keeps its stack');
  t.equal(Error.stackTraceLimit, limit, 'the process keeps its stack trace limit');
  t.match(new Error('other').stack, /^Error: other\n\s+at /, 'other errors keep their stacks');

  TesseraError.keepStacks = true;
  t.match(new TesseraError('NOT_FOUND').stack, /^TesseraError: .+\n\s+at /, 'a development registry keeps them');
});
