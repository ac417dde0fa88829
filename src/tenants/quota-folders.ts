/** Where a tenant's quota records live in storage, beside its tenant record. */
export const publishTicketsFolder = (tenant: string): string => `quota/${tenant}/publishes/`;
export const dryRunTicketsFolder = (tenant: string): string => `quota/${tenant}/dry-runs/`;
export const bytesLedgerFolder = (tenant: string): string => `quota/${tenant}/bytes/`;
export const versionsLedgerFolder = (tenant: string, component: string): string => `quota/${tenant}/versions/${component}/`;

/** The clock hour (UTC) a publish at `time` counts in: `2026-01-31T09`. */
export const hourOf = (time: number): string => new Date(time).toISOString().slice(0, 13);
export const lifecycleTicketsFolder = (tenant: string): string => `quota/${tenant}/lifecycle/`;

/** The clock minute (UTC) a lifecycle change at `time` counts in: `2026-01-31T0915`. */
export const minuteOf = (time: number): string => new Date(time).toISOString().slice(0, 16).replace(':', '');
