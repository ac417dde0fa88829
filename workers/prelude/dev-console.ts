import type { Intrinsics } from './intrinsics';
import type { TailCapture } from './tail-capture';

/** One line a component logged on a development registry. */
export interface ConsoleLine {
  level: string;
  message: string;
}

/**
 * Runs INSIDE each isolate (see prelude-source.ts; self-contained, injected as text): the development
 * console. A component built with `new Server({development: {console: true}})` on a development
 * registry has what it logs kept, bounded, and sent with its next answer; anywhere else the console
 * discards. Executions overlapping in one isolate share the lines: a development registry's concern only.
 * Lines of an execution a tail watches go to its capture too (tail-capture.ts).
 */
export function developmentConsole(intrinsics: Intrinsics, tail: TailCapture) {
  'use strict';
  const { stringify, freeze } = intrinsics;
  let consoleLines: ConsoleLine[] | undefined;
  const describe = (value: unknown): string => {
    if (typeof value === 'string') return value;
    try {
      const json = stringify(value);
      return json === undefined ? String(value) : json;
    } catch {
      return String(value);
    }
  };
  const logTo =
    (level: string) =>
    (...args: unknown[]) => {
      const relayed = consoleLines !== undefined && consoleLines.length < 100;
      const tailed = tail.wants();
      if (!relayed && !tailed) return;
      const message = args.map(describe).join(' ');
      if (relayed) consoleLines!.push({ level, message: message.slice(0, 2000) });
      if (tailed) tail.log(level, message);
    };
  const console = freeze({ log: logTo('log'), info: logTo('info'), warn: logTo('warn'), error: logTo('error'), debug: logTo('debug'), trace: logTo('trace') });
  /** From now on, what the component logs is kept. */
  const keep = (): void => {
    consoleLines ??= [];
  };
  /** The lines kept since the last answer that took them, if any. */
  const take = (): ConsoleLine[] | undefined => (consoleLines!.length > 0 ? consoleLines!.splice(0) : undefined);
  return { console, keep, take };
}

export type DevelopmentConsole = ReturnType<typeof developmentConsole>;
