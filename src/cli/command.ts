/** One `tessera` sub-command. */
export interface Command {
  usage: string;
  run(argv: string[]): Promise<void>;
}

/** A failure whose message already says what to do; printed without a code. */
export class CliError extends Error {}

/** A failure as the CLI prints it: its code and sentence, then each problem of a coded error on its own line. */
export function describeFailure(error: unknown): string {
  if (error instanceof CliError) return `Error: ${error.message}`;
  const coded = error as { code?: string; message?: string; details?: { problems?: unknown[] } };
  const lines = [`Error${coded.code ? ` ${coded.code}` : ''}: ${coded.message ?? String(error)}`];
  for (const problem of coded.details?.problems ?? []) lines.push(`  - ${String(problem)}`);
  return lines.join('\n');
}
