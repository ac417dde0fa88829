import type { Registry } from '../../src/registry';

/** Polls until the condition holds (the test's own timeout bounds the wait). */
export async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Waits until every sandbox worker has started and answers, so that timings do not include a worker's start. */
export async function workersUp(registry: Registry, workers: number): Promise<void> {
  await until(async () => (await registry.pool.stats()).workers === workers);
}

/** Waits until the workers hold at least `count` warm isolates (one per component version being run). */
export async function warmIsolates(registry: Registry, count: number): Promise<void> {
  await until(async () => (await registry.pool.stats()).warmIsolates >= count);
}
