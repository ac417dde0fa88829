import t from 'tap';
import { ENTRY_GRID_MS, onEntryGrid } from '../../workers/execution-timers';

// isolated-vm wakes its timer thread for every entry's limit when it falls due, finished or not:
// limits on one grid fall due together. None may stop code before its limit, nor long after it.
t.test("an entry's limit is its deadline rounded up to the grid: never shorter, at most a grid and a millisecond longer", async (t) => {
  for (const now of [0, 1, 12.3, 24.999, 25, 1000.5, 123456.789]) {
    for (const ms of [1, 50, 4999.2, 5000]) {
      const timeout = onEntryGrid(ms, now);
      t.ok(Number.isInteger(timeout), `${ms} ms at ${now}: whole milliseconds`);
      t.ok(timeout >= ms, `${ms} ms at ${now}: ${timeout} is not shorter`);
      t.ok(timeout <= ms + ENTRY_GRID_MS + 1, `${ms} ms at ${now}: ${timeout} is at most a grid longer`);
      const due = now + timeout;
      t.ok(due - Math.floor(due / ENTRY_GRID_MS) * ENTRY_GRID_MS < 1, `${ms} ms at ${now}: falls due within a millisecond after a grid line (${due})`);
    }
  }
  t.equal(onEntryGrid(5000, 10), 5015, 'a limit of 5 s taken at 10 ms falls due at 5,025 ms');
  t.equal(onEntryGrid(5000, 26), 5024, 'and one taken at 26 ms at 5,050 ms');
});
