import { Gauge, type Registry } from 'prom-client';
import type { PublishPool } from './publish-pool';

/** The publish pool's figures, read at each scrape. */
export function observePublishPool(registry: Registry, pool: PublishPool): void {
  new Gauge({
    name: 'tessera_publishes_in_progress',
    help: 'Publishes handed to the publish threads and not ended yet: running, or waiting for a free thread.',
    registers: [registry],
    collect() {
      this.set(pool.inProgress);
    },
  });
  new Gauge({
    name: 'tessera_publishes_waiting',
    help: "Publishes waiting for a publish thread, in their tenants' round-robin queues (each a file on disk, no body in memory).",
    registers: [registry],
    collect() {
      this.set(pool.waiting);
    },
  });
}
