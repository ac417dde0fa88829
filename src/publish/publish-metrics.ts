import { Gauge, type Registry } from 'prom-client';
import type { PublishPool } from './publish-pool';

/** The publish pool's figure, read at each scrape: publishes running in its threads or waiting for one. */
export function observePublishPool(registry: Registry, pool: PublishPool): void {
  new Gauge({
    name: 'tessera_publishes_in_progress',
    help: 'Publishes handed to the publish threads and not ended yet: running, or waiting for a free thread.',
    registers: [registry],
    collect() {
      this.set(pool.inProgress);
    },
  });
}
