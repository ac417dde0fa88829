import type { TailReport } from '../src/sandbox/protocol';

/**
 * The console lines of an execution a tail watches, as the isolate sent them while it ran
 * (workers/prelude/tail-capture.ts): kept here, on the trusted side, they reach its tail with
 * whatever answer it gets, a limit's that stopped the isolate included.
 */
export interface TailLines {
  readonly console: Array<{ level: string; message: string }>;
  /** Lines past the bound were logged (the isolate counts them, and tells the count with its answer). */
  cut: boolean;
}

// The isolate's bounds, held again: what it sends is tenant data.
const MAX_LINES = 50;
const MAX_LINE_CHARS = 1001;

/** A line message of the isolate's (a level and a message, or `cut` as level): bounded, anything else ignored. */
export function keepLine(lines: TailLines, level: unknown, message: unknown): void {
  if (level === true) lines.cut = true;
  else if (typeof level === 'string' && typeof message === 'string' && lines.console.length < MAX_LINES) lines.console.push({ level, message: message.slice(0, MAX_LINE_CHARS) });
}

/** What a tail gets of the execution: its CPU time, its lines, and what the isolate kept (`captured`, when it answered). */
export function tailReport(cpuNs: bigint, lines: TailLines, captured: string | undefined): TailReport {
  const report: TailReport = { cpuMs: Number(cpuNs) / 1e6, console: lines.console };
  if (lines.cut) report.cut = true;
  if (captured !== undefined) report.captured = captured;
  return report;
}
