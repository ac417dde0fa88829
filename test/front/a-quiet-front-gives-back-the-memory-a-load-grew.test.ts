import t from 'tap';
import fastify from 'fastify';
import v8 from 'node:v8';
import vm from 'node:vm';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { memoryReducingCollection, quietWatch, releaseMemoryWhenQuiet } from '../../src/front/idle-memory';
import { request } from '../helpers/start-registry';
import { until } from '../sandbox/wait-for';

t.test('the watch collects once per quiet spell that follows requests, never while they keep coming', async (t) => {
  let requests = 0;
  let collections = 0;
  // Quiet for two looks in a row (busy use, below, is not reached here).
  const look = quietWatch(() => requests, { looks: 2, busyAnswers: 100, looksAfterBusy: 4 }, () => collections++);
  t.same([look(), look(), look(), look(), collections], [false, true, false, false, 1], "the start's garbage, once, at the second quiet look");
  requests += 3;
  t.same([look(), look(), look()], [false, false, true], 'requests came: two quiet looks after them, then the memory is given back');
  t.same([look(), look(), collections], [false, false, 2], 'still quiet: not again');
  requests++;
  t.equal(look(), false, 'a request');
  t.equal(look(), false, 'one quiet look');
  requests++;
  t.same([look(), look(), collections], [false, false, 2], 'a request between quiet looks starts the count again');
  for (let i = 0; i < 5; i++) {
    requests++;
    t.equal(look(), false, `requests at every look (${i + 1}): never`);
  }
  t.same([look(), look(), collections], [false, true, 3], 'then quiet again: once more');
});

t.test('after busy use the watch waits longer: a collection of an idle thread throws its optimized code away', async (t) => {
  let requests = 0;
  let collections = 0;
  const look = quietWatch(() => requests, { looks: 2, busyAnswers: 100, looksAfterBusy: 4 }, () => collections++);
  requests += 100;
  t.same([look(), look(), look(), look(), collections], [false, false, false, false, 0], 'a hundred answers from the start: two quiet looks are not enough');
  t.same([look(), collections], [true, 1], 'the fourth quiet look after them collects');
  requests += 99;
  t.same([look(), look(), look(), collections], [false, false, true, 2], '99 answers since that collection: light use, two quiet looks');
  requests += 60;
  t.equal(look(), false, '60 more');
  requests += 40;
  t.same([look(), look(), look(), look(), collections], [false, false, false, false, 2], 'a hundred since the last collection, though in two bursts: busy, so not at the second quiet look');
  t.same([look(), look(), collections], [true, false, 3], 'at the fourth, once');
});

t.test("a front's answers count for the watch: one collection after the start, one after a load", async (t) => {
  const app = fastify();
  let collections = 0;
  const answered = releaseMemoryWhenQuiet(app, 25, { looks: 2, busyAnswers: 1000, looksAfterBusy: 2 }, () => collections++);
  app.addHook('onSend', (_request, _reply, payload, done) => (answered(), done(null, payload)));
  app.get('/', async () => 'ok');
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  // Counted, not timed: on a busy machine a look may fall between two of the requests below.
  await until(() => collections > 0);
  const afterStart = collections;
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal(collections, afterStart, 'collected after the start, and not again while nothing comes');
  for (let i = 0; i < 20; i++) t.equal((await request(url)).status, 200);
  await until(() => collections > afterStart);
  const afterLoad = collections;
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal(collections, afterLoad, 'collected after the load, and not again while nothing comes');
});

t.test('the collection shrinks the young generation and leaves no gc global in any other context', async (t) => {
  const newSpace = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size;
  // Short-lived garbage until the young generation has grown past its smallest size.
  let kept: object[] = [];
  for (let i = 0; newSpace() <= 4 * 2 ** 20 && i < 5e7; i++) {
    kept.push({ i });
    if (kept.length > 50_000) kept = [];
  }
  t.ok(newSpace() > 4 * 2 ** 20, 'the young generation grew');
  memoryReducingCollection();
  t.ok(newSpace() <= 2 * 2 ** 20, `the young generation is back to its smallest (${newSpace()} bytes)`);
  t.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined', 'this context has no gc');
  t.equal(vm.runInNewContext('typeof gc'), 'undefined', 'nor has a context made after it');
});

t.test('front threads collecting at the same moment never throw, though the flag they set is the process\'s', async (t) => {
  const module = path.join(__dirname, '..', '..', 'src', 'front', 'idle-memory.js');
  const source = `const { memoryReducingCollection } = require(${JSON.stringify(module)});
    for (let i = 0; i < 5; i++) memoryReducingCollection();
    require('node:worker_threads').parentPort.postMessage(typeof gc);`;
  const threads = Array.from({ length: 4 }, () => new Worker(source, { eval: true }));
  const ends = await Promise.all(
    threads.map((thread) => new Promise<[unknown, number]>((resolve) => {
      let said: unknown;
      thread.on('message', (message) => (said = message));
      thread.on('error', (error) => (said = error.message));
      thread.on('exit', (code) => resolve([said, code]));
    })),
  );
  t.same(ends, Array.from({ length: 4 }, () => ['undefined', 0]), 'each thread ended normally, with no gc global of its own');
  t.equal(vm.runInNewContext('typeof gc'), 'undefined', 'and a context made after them has none');
});
