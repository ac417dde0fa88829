import type { ExecutionRecord } from './execution-record';

/** The watcher key of the administrator's tails: they see every tenant's executions. */
export const EVERY_TENANT = '*';

/** What a tail sends of one execution, and the component name its pattern is matched against. */
export interface TailView {
  event: Record<string, unknown>;
  subject: string;
}

/**
 * What the tail of `watcher` (a tenant, or EVERY_TENANT) may see of an execution, or undefined:
 * - its own tenant's executions in full (console lines, exception, CPU time); the component that
 *   asked for a nested one only when it is the tenant's own too;
 * - another tenant's component rendered inside one of its own: the outcome alone (status, code,
 *   duration), never its message, lines, exception or CPU time; its pattern is matched against
 *   its own component that asked for it;
 * - the administrator: every execution in full, once, with its tenant.
 */
export function viewFor(watcher: string, record: ExecutionRecord): TailView | undefined {
  if (watcher === EVERY_TENANT) return { event: fullView(record, true), subject: record.name };
  if (record.tenant === watcher) return { event: fullView(record, false), subject: record.name };
  if (record.caller?.tenant === watcher) return { event: outcomeView(record, record.caller.name), subject: record.caller.name };
  return undefined;
}

function fullView(record: ExecutionRecord, withTenant: boolean): Record<string, unknown> {
  const event: Record<string, unknown> = { time: record.time };
  if (withTenant) event.tenant = record.tenant;
  event.name = record.name;
  event.version = record.version;
  event.via = record.via;
  event.outcome = outcomeOf(record, true);
  event.durationMs = record.durationMs;
  if (record.cpuMs !== undefined) event.cpuMs = record.cpuMs;
  event.traceId = record.traceId;
  if (record.caller !== undefined && (withTenant || record.caller.tenant === record.tenant)) event.caller = record.caller.name;
  if (record.console !== undefined) event.console = record.console;
  if (record.consoleDropped) event.consoleDropped = record.consoleDropped;
  if (record.exception !== undefined) event.exception = record.exception;
  return event;
}

function outcomeView(record: ExecutionRecord, caller: string): Record<string, unknown> {
  return {
    time: record.time,
    name: record.name,
    version: record.version,
    via: record.via,
    foreign: true,
    outcome: outcomeOf(record, false),
    durationMs: record.durationMs,
    traceId: record.traceId,
    caller,
  };
}

function outcomeOf(record: ExecutionRecord, withMessage: boolean): Record<string, unknown> {
  const outcome: Record<string, unknown> = { status: record.status };
  if (record.code !== undefined) outcome.code = record.code;
  if (withMessage && record.message !== undefined) outcome.message = record.message;
  return outcome;
}
