/** How an execution ran: a render from outside, an item of a batch, a nested render, an action. */
export type TailVia = 'get' | 'batch' | 'nested' | 'action';

/** One line the server logic logged: `console.<level>(…)`, its arguments joined as text. */
export interface TailConsoleLine {
  level: string;
  message: string;
}

/** An uncaught exception: its message, and the frames of the component's own code only. */
export interface TailException {
  message: string;
  stack: string[];
}

/** What an execution's sandbox reported for a tail: its CPU time, console lines (bounded) and uncaught exception. */
export interface ExecutionReport {
  cpuMs?: number;
  console?: TailConsoleLine[];
  /** Lines past the bound, not kept. */
  consoleDropped?: number;
  exception?: TailException;
}

/**
 * One execution as the registry saw it, before any tail's view of it is made (tail-views.ts). Plain
 * data: it crosses between front threads.
 */
export interface ExecutionRecord extends ExecutionReport {
  /** ISO time the execution started. */
  time: string;
  /** The tenant of the component version that ran. */
  tenant: string;
  name: string;
  version: string;
  via: TailVia;
  status: number;
  /** The error code; none when it answered. */
  code?: string;
  message?: string;
  durationMs: number;
  /** The W3C trace id of the request from outside (32 hex digits), shared by its nested renders. */
  traceId: string;
  /** A nested render: the component that asked for it, and its tenant. */
  caller?: { name: string; tenant: string };
}
