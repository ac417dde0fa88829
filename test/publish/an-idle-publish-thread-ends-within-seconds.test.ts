import { readdir, writeFile } from 'node:fs/promises';
import t from 'tap';
import type { PublishJob } from '../../src/publish/publish-package';
import { eventually } from '../cli/run-cli';
import { until } from '../sandbox/wait-for';
import { pipedPool } from './piped-pool';
import { GREETING, packed } from './publish-helpers';

// A publish thread holds tens of MB while it lives. One kept for a minute after a publish was
// counted in the registry's memory under the load that followed; it now ends seconds after its
// last publish, and is kept between publishes that come closer together.

const dryRun: PublishJob = { name: 'publish-greeting', version: '1.0.0', tenant: 'greeters', tokenId: 'config:greeters', storedToken: false, dryRun: true };
const threadIds = async (): Promise<Set<string>> => new Set(await readdir('/proc/self/task'));

t.test('an idle publish thread ends within seconds of its last publish, and is kept between publishes in a row', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  // Read once first: the reads themselves start Node's own I/O threads, which are not the pool's.
  await threadIds();
  const before = await threadIds();
  const started = async () => [...(await threadIds())].filter((tid) => !before.has(tid));
  const { pool, pipe } = await pipedPool(t, 20);

  const first = pool.run(dryRun, pipe);
  await until(async () => (await started()).length > 0);
  const [thread] = await started();
  await writeFile(pipe, await packed(GREETING));
  t.same(await first, { ok: true }, 'the first publish ran in a thread');
  const second = pool.run(dryRun, pipe);
  await writeFile(pipe, await packed(GREETING));
  t.same(await second, { ok: true }, 'the next one too');
  t.same(await started(), [thread], 'in the same thread, kept between them');

  // 25 s: a busy machine's allowance, far past the idle time; a thread kept for a minute fails it.
  await eventually(async () => (await started()).length === 0, 25_000, 50);
});
