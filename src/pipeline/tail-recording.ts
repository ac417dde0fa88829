import { ERRORS, TesseraError } from '../errors/errors';
import type { ExecutionJob, LeasableChild } from '../sandbox/execution-job';
import type { TailReport } from '../sandbox/protocol';
import type { RequestBudget } from '../sandbox/request-budget';
import type { ExecutionRecord, ExecutionReport, TailConsoleLine, TailVia } from '../tail/execution-record';
import type { TailHub } from '../tail/tail-hub';
import { traceIdOf } from '../tail/trace-id';
import { failureMessage, type SandboxFailure } from './sandbox-failure';

/** What a record needs of the render that ran the execution. */
export interface RecordedExecution {
  tenant: string;
  name: string;
  version: string;
  request: { action?: string; depth: number; batch?: unknown; callerTenant?: string; callerComponent?: string };
  budget: RequestBudget;
  /** Maps an uncaught exception's frames to the component's source files (src/tail/source-map-frames.ts). */
  mapFrames?: (stack: string[]) => Promise<string[]>;
}

/** How a render ran: an action, a nested render, a batch item, or a GET. */
const viaOf = (request: RecordedExecution['request']): TailVia =>
  request.action !== undefined ? 'action' : request.depth > 0 ? 'nested' : request.batch !== undefined ? 'batch' : 'get';

/**
 * Whether a tail of this process may see an execution of `tenant`'s component: in full (a tail of
 * its tenant's, or the administrator's), as an outcome inside the tail of its caller's tenant, or
 * not at all (undefined: then nothing of it is recorded).
 */
export function tailSight(tails: TailHub | undefined, tenant: string, callerTenant: string | undefined): 'full' | 'outcome' | undefined {
  if (tails === undefined) return undefined;
  if (tails.watches(tenant)) return 'full';
  return callerTenant !== undefined && callerTenant !== tenant && tails.watches(callerTenant) ? 'outcome' : undefined;
}

/** A watched tenant's children go through the front, each recorded in full, rather than beside their parent under a lease. */
export function unleasedWhenWatched<T extends LeasableChild>(tails: TailHub | undefined, sight: string | undefined, children: T[] | undefined): T[] | undefined {
  return sight === undefined || children === undefined ? children : children.filter((child) => !tails!.watches(child.tenant));
}

/**
 * Records an execution for the tails once it settles (its answer passes through untouched): its
 * outcome, duration, the request's trace id, and what its host reported (CPU time, console lines,
 * exception) when it was flagged. An exception's frames are published once mapped to the
 * component's source files, in their turn (TailHub.publishWhen).
 */
export function recordForTails<T extends { ok: boolean }>(tails: TailHub, execution: RecordedExecution, job: ExecutionJob, answer: Promise<T>): Promise<T> {
  const started = performance.now();
  const time = new Date().toISOString();
  const { request, budget } = execution;
  const caller = request.depth > 0 && request.callerTenant !== undefined ? { name: request.callerComponent ?? '', tenant: request.callerTenant } : undefined;
  const record = (status: number, code: string | undefined, message: string | undefined): void => {
    budget.traceId ??= traceIdOf(budget.traceparent);
    const entry: ExecutionRecord = {
      time,
      tenant: execution.tenant,
      name: execution.name,
      version: execution.version,
      via: viaOf(request),
      status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      traceId: budget.traceId,
      ...reportOf(job.report),
    };
    if (code !== undefined) entry.code = code;
    if (message !== undefined) entry.message = message;
    if (caller) entry.caller = caller;
    const exception = entry.exception;
    if (exception === undefined || exception.stack.length === 0 || execution.mapFrames === undefined) {
      tails.publish(entry);
      return;
    }
    tails.publishWhen(
      execution.mapFrames(exception.stack).then(
        (stack) => ({ ...entry, exception: { message: exception.message, stack: stack.map((frame) => frame.slice(0, MAX_FRAME_CHARS)) } }),
        () => entry,
      ),
    );
  };
  return answer.then(
    (settled) => {
      if (settled.ok) record(200, undefined, undefined);
      else {
        const failure = settled as unknown as SandboxFailure;
        record(failure.status ?? ERRORS[failure.code].status, failure.code, failureMessage(execution.name, failure));
      }
      return settled;
    },
    (error: unknown) => {
      if (error instanceof TesseraError) record(error.status, error.code, error.message);
      else record(500, 'GENERIC_ERROR', ERRORS.GENERIC_ERROR.message);
      throw error;
    },
  );
}

const MAX_LINES = 50;
const MAX_LINE_CHARS = 1001;
const MAX_FRAMES = 20;
const MAX_FRAME_CHARS = 301;
const LEVELS = new Set(['log', 'info', 'warn', 'error', 'debug', 'trace']);

const clipped = (value: unknown, max: number): string | undefined => (typeof value === 'string' ? value.slice(0, max) : undefined);

/** What the host reported, read as data that crossed from an isolate: only the expected shapes, bounded again. */
export function reportOf(wire: TailReport | undefined): ExecutionReport {
  if (wire === undefined) return {};
  const report: ExecutionReport = { cpuMs: Math.round(wire.cpuMs * 100) / 100 };
  if (Array.isArray(wire.console)) report.console = linesOf(wire.console);
  let captured: { consoleDropped?: unknown; exception?: { message?: unknown; stack?: unknown } } = {};
  if (wire.captured !== undefined) {
    try {
      captured = JSON.parse(wire.captured) as typeof captured;
    } catch {
      return report;
    }
  }
  // An execution stopped by a limit never told how many lines it dropped: at least one.
  if (typeof captured.consoleDropped === 'number' && captured.consoleDropped > 0) report.consoleDropped = Math.floor(captured.consoleDropped);
  else if (wire.cut === true) report.consoleDropped = 1;
  const exception = captured.exception;
  if (exception !== undefined && exception !== null && typeof exception === 'object') {
    const stack = Array.isArray(exception.stack) ? exception.stack.slice(0, MAX_FRAMES).flatMap((frame) => clipped(frame, MAX_FRAME_CHARS) ?? []) : [];
    report.exception = { message: clipped(exception.message, MAX_LINE_CHARS) ?? '', stack };
  }
  return report;
}

function linesOf(wire: unknown[]): TailConsoleLine[] {
  const lines: TailConsoleLine[] = [];
  for (const line of wire.slice(0, MAX_LINES) as Array<{ level?: unknown; message?: unknown }>) {
    const message = clipped(line?.message, MAX_LINE_CHARS);
    if (message !== undefined) lines.push({ level: typeof line.level === 'string' && LEVELS.has(line.level) ? line.level : 'log', message });
  }
  return lines;
}
