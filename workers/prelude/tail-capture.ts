import type { Intrinsics } from './intrinsics';

/**
 * Runs INSIDE each isolate (see prelude-source.ts; self-contained, injected as text): what a tail
 * gets of an execution. Only executions the host flags (a tail that may see them is open on the
 * registry) have their console lines sent and their uncaught exception kept; with none flagged,
 * `wants` is one comparison and nothing is formatted, sent or kept. Each line goes to the host as
 * it is logged (`send`): an execution a limit stops has its lines there all the same.
 *
 * A line is the execution's that last entered the context when it is logged: the one that started
 * last, or resumed last from a nested render's or plugin's answer. Executions of one version that
 * entered together and then interleave on promises of their own may see each other's lines; lines
 * never cross versions, components or tenants, each context having its own capture.
 */
export function tailCapture(intrinsics: Intrinsics, send: (execId: number, level: string, message: string | undefined) => void) {
  'use strict';
  const { stringify, createObject } = intrinsics;
  // Bounds of what one execution's report carries (docs/guides/authors/watching-executions.md).
  const MAX_LINES = 50;
  const MAX_LINE_CHARS = 1000;
  const MAX_MESSAGE_CHARS = 1000;
  const MAX_FRAMES = 20;
  const MAX_FRAME_CHARS = 300;
  const MAX_KEPT = 256;
  // Frames of the component's own code: its server bundle and its template, compiled under these names (workers/version-context.ts).
  const OWN_FRAME = /\((?:server|template)\.js:\d+:\d+\)$|^\s*at (?:server|template)\.js:\d+:\d+$/;

  interface Kept {
    /** Lines sent so far. */
    lines: number;
    consoleDropped: number;
    exception?: { message: string; stack: string[] };
  }
  const kept: Record<number, Kept> = createObject(null);
  let flagged = 0;
  let current = 0;

  const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text);

  /** An execution the host flagged: what it logs and throws is kept from now. */
  const start = (execId: number): void => {
    // Executions that never answer (cancelled, stopped by a limit) keep their entry: bounded, and gone with the isolate.
    if (flagged >= MAX_KEPT) return;
    kept[execId] = { lines: 0, consoleDropped: 0 };
    flagged++;
  };
  /** The execution whose code runs from here. */
  const enter = (execId: number): void => {
    current = execId;
  };
  /** Whether the line logged now would be kept. */
  const wants = (): boolean => flagged > 0 && kept[current] !== undefined;
  const log = (level: string, message: string): void => {
    const entry = kept[current];
    if (entry === undefined) return;
    if (entry.lines < MAX_LINES) {
      entry.lines++;
      send(current, level, clip(message, MAX_LINE_CHARS));
    } else if (entry.consoleDropped++ === 0) send(current, level, undefined);
  };
  /** An exception the execution did not catch: its message and its own frames. */
  const thrown = (execId: number, error: unknown): void => {
    const entry = kept[execId];
    if (entry === undefined || entry.exception !== undefined) return;
    let message = '';
    const stack: string[] = [];
    try {
      const fields = error !== null && typeof error === 'object' ? (error as { message?: unknown; stack?: unknown }) : undefined;
      message = clip(typeof fields?.message === 'string' ? fields.message : String(error), MAX_MESSAGE_CHARS);
      const text = fields?.stack;
      if (typeof text === 'string') {
        for (const line of clip(text, 64 * 1024).split('\n')) {
          if (stack.length === MAX_FRAMES) break;
          if (OWN_FRAME.test(line)) stack.push(clip(line.trim(), MAX_FRAME_CHARS));
        }
      }
    } catch {
      message = 'The component threw a value that cannot be read.';
    }
    entry.exception = { message, stack };
  };
  /** The execution's report as JSON (how many lines were dropped, its exception), once it answers; undefined for one not flagged. */
  const take = (execId: number): string | undefined => {
    const entry = kept[execId];
    if (entry === undefined) return undefined;
    delete kept[execId];
    flagged--;
    return stringify({ consoleDropped: entry.consoleDropped, exception: entry.exception });
  };
  return { start, enter, wants, log, thrown, take };
}

export type TailCapture = ReturnType<typeof tailCapture>;
