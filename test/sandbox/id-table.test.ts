import t from 'tap';
import { IdTable } from '../../src/sandbox/id-table';

t.test('an id table answers as a Map of its entries, in ascending id order', async (t) => {
  const table = new IdTable<string>();
  t.equal(table.size, 0);
  t.equal(table.get(1), undefined);
  t.equal(table.set(3, 'c').set(1, 'a').set(2, 'b').size, 3);
  t.equal(table.set(2, 'B').size, 3, 'setting an id again replaces its value');
  t.same([...table], [[1, 'a'], [2, 'B'], [3, 'c']]);
  t.same([...table.keys()], [1, 2, 3]);
  t.same([...table.values()], ['a', 'B', 'c']);
  t.ok(table.has(3));
  t.equal(table.delete(3), true);
  t.equal(table.delete(3), false, 'an id deleted twice is deleted once');
  t.equal(table.has(3), false);
  t.equal(table.size, 2);
  table.clear();
  t.same([table.size, [...table]], [0, []]);
});

t.test('entries may be deleted while the table is iterated', async (t) => {
  const table = new IdTable<number>();
  for (let id = 1; id <= 5; id++) table.set(id, id * 10);
  const seen: number[] = [];
  for (const [id, value] of table) {
    seen.push(value);
    table.delete(id);
    table.delete(id + 1);
  }
  t.same(seen, [10, 20, 30, 40, 50], 'the iteration goes over the entries there when it began');
  t.equal(table.size, 0);
});

t.test('a value that is undefined still counts as an entry', async (t) => {
  const table = new IdTable<undefined>();
  table.set(7, undefined);
  t.same([table.size, table.has(7), [...table.keys()]], [1, true, [7]]);
});

t.test('entries that outlast thousands of later ids stay found, beside the ones passing through', async (t) => {
  const table = new IdTable<string>();
  table.set(1, 'long');
  table.set(2, 'also long');
  for (let id = 3; id < 20_000; id++) {
    table.set(id, `short ${id}`);
    if (id > 12) table.delete(id - 10);
  }
  t.equal(table.get(1), 'long');
  t.equal(table.get(2), 'also long');
  t.equal(table.size, 2 + 10, 'the two long ones and the last ten');
  t.same([...table.keys()].slice(0, 4), [1, 2, 19_990, 19_991]);
  for (let id = 19_990; id < 20_000; id++) t.equal(table.get(id), `short ${id}`);
  t.equal(table.get(4097), undefined, 'an id that shares a slot with a live one is not taken for it');
  t.ok(table.delete(1) && table.delete(2));
  t.equal(table.size, 10);
});

t.test('thousands of entries live at once are all found, whatever slots their ids share', async (t) => {
  const table = new IdTable<number>();
  const ids = Array.from({ length: 10_000 }, (_, index) => 1 + index * 7);
  for (const id of ids) table.set(id, id * 2);
  t.equal(table.size, ids.length);
  t.equal(ids.filter((id) => table.get(id) !== id * 2).length, 0);
  t.same([...table.keys()], ids, 'in ascending order');
  for (const id of ids.slice(0, 5000)) table.delete(id);
  t.same([table.size, table.get(ids[0]!), table.get(ids[9999]!)], [5000, undefined, ids[9999]! * 2]);
});
