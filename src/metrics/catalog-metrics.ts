import { Gauge, type Registry } from 'prom-client';
import type { Catalog } from '../catalog/catalog';

/** The catalog's figure: stored versions it skipped because they cannot be read (decisions §12). */
export function observeCatalog(registry: Registry, catalog: Catalog): void {
  new Gauge({
    name: 'tessera_catalog_unreadable_versions',
    help: 'Stored component versions skipped at the last storage read because their files cannot be read.',
    // Every front thread reads the same storage.
    aggregator: 'max',
    registers: [registry],
    collect() {
      this.set(catalog.unreadableCount);
    },
  });
}
