/** An execution event as the registry sends it (docs/reference/http-api.md, `GET /~tail`). */
export interface ExecutionEvent {
  time: string;
  tenant?: string;
  name: string;
  version: string;
  via: string;
  foreign?: true;
  outcome: { status: number; code?: string; message?: string };
  durationMs: number;
  cpuMs?: number;
  traceId: string;
  caller?: string;
  console?: Array<{ level: string; message: string }>;
  consoleDropped?: number;
  exception?: { message: string; stack: string[] };
}

const ESCAPE = '\u001b[';
const paint = (colour: boolean, code: string, text: string): string => (colour ? `${ESCAPE}${code}m${text}${ESCAPE}0m` : text);

/** Characters a terminal would read as its own commands (a component's line can hold any): shown escaped. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const printable = (text: string): string => text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** One execution as a JSON line. */
export const jsonLine = (event: ExecutionEvent): string => `${JSON.stringify(event)}\n`;

/** One execution for a person: a line of its outcome, then its console lines and exception, indented; coloured in a terminal. */
export function prettyLines(event: ExecutionEvent, colour: boolean): string {
  const { status, code, message } = event.outcome;
  const failed = status >= 400;
  const head = [
    paint(colour, '2', event.time),
    event.tenant === undefined ? undefined : `[${event.tenant}]`,
    paint(colour, '1', `${event.name}@${event.version}`),
    event.via,
    paint(colour, failed ? '31' : '32', String(status)),
    code,
    `${event.durationMs}ms`,
    event.cpuMs === undefined ? undefined : `cpu ${event.cpuMs}ms`,
    event.caller === undefined ? undefined : `from ${event.caller}`,
    event.foreign ? '(another tenant\'s: outcome only)' : undefined,
    paint(colour, '2', `trace ${event.traceId}`),
  ].filter((part) => part !== undefined);
  const lines = [head.join(' ')];
  if (message !== undefined) lines.push(`  ${paint(colour, '31', printable(message))}`);
  for (const line of event.console ?? []) lines.push(`  ${paint(colour, line.level === 'error' || line.level === 'warn' ? '33' : '2', line.level.padEnd(5))} ${printable(line.message)}`);
  if (event.consoleDropped) lines.push(`  … ${event.consoleDropped} more console lines dropped`);
  if (event.exception) {
    lines.push(`  ${paint(colour, '31', `uncaught: ${printable(event.exception.message)}`)}`);
    for (const frame of event.exception.stack) lines.push(`    ${printable(frame)}`);
  }
  return `${lines.join('\n')}\n`;
}
