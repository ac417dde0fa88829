import { readdir, readFile, writeFile } from 'node:fs/promises';
import t from 'tap';
import type { PublishJob } from '../../src/publish/publish-package';
import { until } from '../sandbox/wait-for';
import { pipedPool } from './piped-pool';
import { GREETING, packed } from './publish-helpers';

// A publish thread is scheduled below renders (`limits.publishThreadNiceness`, 10 by default), or as
// renders at 0. Read from Linux's /proc: the threads this process gained once the pool started a
// publish (held on a named pipe nobody writes to yet), and their niceness.

const dryRun: PublishJob = { name: 'publish-greeting', version: '1.0.0', tenant: 'greeters', tokenId: 'config:greeters', storedToken: false, dryRun: true };

/** The niceness of each thread of this process, by thread id (field 19 of /proc/self/task/<tid>/stat). */
async function threadNiceness(): Promise<Map<string, number>> {
  const niceness = new Map<string, number>();
  for (const tid of await readdir('/proc/self/task')) {
    const stat = await readFile(`/proc/self/task/${tid}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.length > 16) niceness.set(tid, Number(fields[16]));
  }
  return niceness;
}

for (const niceness of [10, 0]) {
  t.test(`a publish thread runs at niceness ${niceness}`, { skip: process.platform === 'linux' ? false : 'reads Linux /proc' }, async (t) => {
    // Read once first: the reads themselves start Node's own I/O threads, which are not the pool's.
    await threadNiceness();
    const before = await threadNiceness();
    const { pool, pipe } = await pipedPool(t, 20, niceness);
    const outcome = pool.run(dryRun, pipe);
    const started = async () => [...(await threadNiceness())].filter(([tid]) => !before.has(tid)).map(([, value]) => value);
    // piscina sets the niceness from inside the thread once it runs: the thread shows at 0 before.
    await until(async () => (await started()).length > 0);
    await writeFile(pipe, await packed(GREETING));
    t.same(await outcome, { ok: true }, 'published in its thread');
    // The publish ran in the thread, after its start: it is idle now, and kept.
    t.same(await started(), [niceness], 'the pool started one thread, at that niceness');
  });
}
