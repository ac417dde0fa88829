import { writeFile } from 'node:fs/promises';
import t from 'tap';
import type { PublishJob } from '../../src/publish/publish-package';
import { pipedPool } from './piped-pool';
import { GREETING, packed } from './publish-helpers';

// The deadline of a publish's checks (`limits.publishCheckSeconds`) is of its thread's CPU time: on
// CPUs that renders and other processes keep busy, a publish thread (at a lower priority) waits for
// a CPU, and an honest package's checks passed 20 s of wall-clock time, refused as too complex. A
// thread that gets no CPU at all is still ended at four times the deadline.
//
// The publish reads its upload from a named pipe nobody writes to until the test says: its thread
// waits there, spending no CPU, for as long as the test decides.

const CHECK_SECONDS = 2;
/**
 * The first test's deadline: its thread waits past the deadline, and then reads and checks the package
 * at nice 10 before four times it (wall-clock time) has passed. With 2 s, that left 5 s, which a
 * machine running two test suites at once did not give it (the thread was ended mid-read: EPIPE).
 */
const WAITING_CHECK_SECONDS = 5;
const dryRun: PublishJob = { name: 'publish-greeting', version: '1.0.0', tenant: 'greeters', tokenId: 'config:greeters', storedToken: false, dryRun: true };


t.test('a publish that waited past its deadline without spending CPU time is checked and accepted', async (t) => {
  const { pool, pipe } = await pipedPool(t, WAITING_CHECK_SECONDS);
  const outcome = pool.run(dryRun, pipe);
  // Past the deadline in wall-clock time (the old rule refused it here), far from it in CPU time.
  await new Promise((resolve) => setTimeout(resolve, (WAITING_CHECK_SECONDS + 1) * 1000));
  await writeFile(pipe, await packed(GREETING));
  t.same(await outcome, { ok: true });
});

t.test('a publish whose thread gets no CPU time is ended at four times its deadline', async (t) => {
  const { pool, pipe } = await pipedPool(t, CHECK_SECONDS);
  const started = performance.now();
  const outcome = await pool.run(dryRun, pipe);
  const elapsed = performance.now() - started;
  t.same(outcome, {
    ok: false,
    refusal: {
      code: 'PACKAGE_TOO_COMPLEX',
      message: `Unpacking and checking the package took more than ${CHECK_SECONDS} s (limits.publishCheckSeconds); nothing was stored.`,
      status: 422,
      details: { bound: 'publishCheckSeconds', limit: CHECK_SECONDS },
    },
  });
  t.ok(elapsed >= 4 * CHECK_SECONDS * 1000 - 50, `ended after ${Math.round(elapsed)} ms, not at the deadline's ${CHECK_SECONDS * 1000} ms`);
});
