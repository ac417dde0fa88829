import t from 'tap';
import { randomUUID } from '../../src/ids/random-uuid';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// Request ids and wrapper ids are written into one reused buffer from random bytes drawn 256 UUIDs
// at a time: each must still be a version 4 UUID of its own, across the draws.
t.test('ids are version 4 UUIDs, none twice, across many draws of random bytes', async (t) => {
  const seen = new Set<string>();
  const misshapen: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    const id = randomUUID();
    if (!V4.test(id)) misshapen.push(id);
    seen.add(id);
  }
  t.same(misshapen, [], 'every id is a version 4 UUID');
  t.equal(seen.size, 20_000, 'no id comes twice');
});

t.test('the random part is spread over every hex digit', async (t) => {
  // Every position that is not fixed (dashes, version, variant's top bits) takes all 16 digits in 4,000 ids.
  const digits = Array.from({ length: 36 }, () => new Set<string>());
  for (let i = 0; i < 4_000; i++) [...randomUUID()].forEach((c, at) => digits[at]!.add(c));
  const free = digits.map((set, at) => ({ at, seen: set.size })).filter(({ at }) => ![8, 13, 14, 18, 19, 23].includes(at));
  t.same(free.filter(({ seen }) => seen !== 16), [], 'each free position saw all 16 digits');
  t.same([...digits[14]!], ['4'], 'the version digit is 4');
  t.same([...digits[19]!].sort(), ['8', '9', 'a', 'b'], 'the variant digit is 8, 9, a or b');
});
