import { Counter, Gauge, type Registry } from 'prom-client';

/** The tails' metrics, labelled by the watching tenant (`*` for the administrator's tails). */
export class TailMetrics {
  readonly #streams: Gauge<'tenant'>;
  readonly #dropped: Counter<'tenant'>;

  constructor(registry: Registry) {
    this.#streams = new Gauge({ name: 'tessera_tail_streams', help: 'Tails open on this replica, by the tenant watching (`*`: the administrator).', labelNames: ['tenant'], registers: [registry] });
    this.#dropped = new Counter({
      name: 'tessera_tail_events_dropped_total',
      help: "Executions a tail's reader did not take in time, dropped from its stream (and told there), by the tenant watching.",
      labelNames: ['tenant'],
      registers: [registry],
    });
  }

  opened(tenant: string): void {
    this.#streams.inc({ tenant });
  }

  closed(tenant: string): void {
    this.#streams.dec({ tenant });
  }

  dropped(tenant: string, count: number): void {
    this.#dropped.inc({ tenant }, count);
  }
}
